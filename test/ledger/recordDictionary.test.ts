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
  it("is the bytes format 5 was written with", () => {
    expect(LEDGER_FORMAT).toBe(5)
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
    const tail = Buffer.concat([Buffer.from(IDLE_BLOCK_METADATA, "hex"), Buffer.from(IDLE_BLOCK_EPILOGUE, "hex")])
    expect(Buffer.compare(recordDictionary().subarray(-tail.length), tail)).toBe(0)
  })
})

const PINNED_LENGTH = 4933
const PINNED_SHA3 = "3a345f840bc0d2a237cd7d8fa6896fbef9cb33070d5dcd1f0d2221e8ade6a615"
