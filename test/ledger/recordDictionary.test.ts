/**
 * The `txns` table's LZ4 dictionary is part of the stored format (src/ledger/recordDictionary.ts):
 * records compressed with it read back only with the very same bytes. A change here is a format
 * change (a new LEDGER_FORMAT and a message for older stores), never an edit.
 */
import { sha3_256 } from "@noble/hashes/sha3.js"
import { describe, expect, it } from "vitest"
import { LEDGER_FORMAT } from "../../src/ledger/lmdbRecords.js"
import { recordDictionary } from "../../src/ledger/recordDictionary.js"

describe("the records' dictionary", () => {
  it("is the bytes format 4 was written with", () => {
    expect(LEDGER_FORMAT).toBe(4)
    const bytes = recordDictionary()
    expect(bytes.length).toBe(PINNED_LENGTH)
    expect(Buffer.from(sha3_256(bytes)).toString("hex")).toBe(PINNED_SHA3)
  })
})

const PINNED_LENGTH = 3166
const PINNED_SHA3 = "b85d9995844b11256f40a5374ff65be9a2162eef0f5de40f517952aaa6e9b1ae"
