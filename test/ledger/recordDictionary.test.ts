/**
 * The `txns` table's LZ4 dictionary is part of the stored format (src/ledger/recordDictionary.ts):
 * records compressed with it read back only with the very same bytes. A change here is a format
 * change (a new LEDGER_FORMAT and a message for older stores), never an edit.
 */
import { sha3_256 } from "@noble/hashes/sha3.js"
import { describe, expect, it } from "vitest"
import { decodeTransactionRecord, LEDGER_FORMAT } from "../../src/ledger/lmdbRecords.js"
import { recordDictionary } from "../../src/ledger/recordDictionary.js"
import { IDLE_BLOCK_EPILOGUE, IDLE_BLOCK_METADATA } from "../../src/ledger/recordSamples.js"

describe("the records' dictionary", () => {
  it("is the bytes format 6 was written with", () => {
    expect(LEDGER_FORMAT).toBe(6)
    const bytes = recordDictionary()
    expect(bytes.length).toBe(PINNED_LENGTH)
    expect(Buffer.from(sha3_256(bytes)).toString("hex")).toBe(PINNED_SHA3)
  })

  it("ends with an idle block's two records, as the ledger encodes them", () => {
    const metadata = decodeTransactionRecord(Buffer.from(IDLE_BLOCK_METADATA, "hex"), 529n)
    expect(metadata.transaction._tag).toBe("BlockMetadata")
    expect(metadata.writeSet.entries.length).toBe(7)
    expect(metadata.events.length).toBe(1)
    const epilogue = decodeTransactionRecord(Buffer.from(IDLE_BLOCK_EPILOGUE, "hex"), 530n)
    expect(epilogue.transaction._tag).toBe("BlockEpilogue")
    expect(epilogue.blockHeight).toBe(metadata.blockHeight)
    // Every epilogue's: no events (the accumulator's placeholder), no writes.
    expect(Buffer.from(epilogue.info.eventRootHash).toString("latin1")).toMatch(/^ACCUMULATOR_PLACEHOLDER_HASH\0+$/)
    expect(Buffer.from(epilogue.info.stateChangeHash).toString("hex")).toBe(EMPTY_WRITE_SET_HASH)
    const tail = Buffer.concat([Buffer.from(IDLE_BLOCK_METADATA, "hex"), Buffer.from(IDLE_BLOCK_EPILOGUE, "hex")])
    expect(Buffer.compare(recordDictionary().subarray(-tail.length), tail)).toBe(0)
  })
})

const PINNED_LENGTH = 4933
const EMPTY_WRITE_SET_HASH = "afb6e14fe47d850fd0a7395bcfb997ffacf4715e0f895cc162c218e4a7564bc6"
const PINNED_SHA3 = "df1081fb8514664419742c8a0b760220686f1c94c37cc0625dddb404b9f0368f"
