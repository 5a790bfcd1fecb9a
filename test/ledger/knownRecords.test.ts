import { describe, expect, it } from "vitest"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { knownRecord } from "../../src/ledger/knownRecords.js"
import {
  decodeTransactionRecordKeepingBytes,
  encodeTransactionRecordWithOffsets
} from "../../src/ledger/lmdbRecords.js"
import { prepareBlock } from "../../src/ledger/prepareBlock.js"
import { toCommit, userTxn } from "./fixtures.js"

describe("a record kept from a dump", () => {
  it("is the transaction's encoding, with the offsets of its ops and events, wherever its bytes lie", () => {
    const events = [0, 1, 2].map((n) => ({
      _tag: "V1" as const,
      key: { creationNumber: BigInt(n), accountAddress: addressFromNumber(0x200) },
      sequenceNumber: BigInt(n),
      typeTag: { _tag: "u64" as const },
      data: new Uint8Array([n, 1, 2])
    }))
    const block = {
      epoch: 1n,
      timestampUsec: 5n,
      transactions: [
        toCommit(
          userTxn(0x100, 3n),
          [
            [1, 7],
            [2, undefined],
            [3, 9]
          ],
          events,
          true
        )
      ]
    }
    const t = prepareBlock(undefined, block, { chainId: 4, window: undefined, blockOfVersion: () => undefined })
      .transactions[0]!
    const encoded = encodeTransactionRecordWithOffsets(t)
    // The record in the middle of a larger buffer (a dump's body).
    const container = new Uint8Array(encoded.bytes.length + 37)
    container.set(encoded.bytes, 13)
    const decoded = decodeTransactionRecordKeepingBytes(container.subarray(13, 13 + encoded.bytes.length), t.version)
    const kept = knownRecord(decoded)!
    expect(Buffer.from(kept.bytes).equals(Buffer.from(encoded.bytes))).toBe(true)
    expect(kept.opOffsets).toEqual(encoded.opOffsets)
    expect(kept.eventOffsets).toEqual(encoded.eventOffsets)
    expect(Buffer.from(encodeTransactionRecordWithOffsets(decoded).bytes).equals(Buffer.from(encoded.bytes))).toBe(true)
  })
})
