import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { Bcs, toHex } from "../../src/bcs/index.js"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { rawTransactionCodec, transactionPayloadCodec } from "../../src/domain/PayloadCodec.js"
import type { BlockMetadata, Transaction } from "../../src/domain/Transaction.js"
import { transactionCodec } from "../../src/domain/TransactionCodec.js"

const h = (byte: number) => new Uint8Array(32).fill(byte)
const u64 = (n: number) => toHex(new Uint8Array(new BigUint64Array([BigInt(n)]).buffer))
const addrHex = (n: number) => toHex(addressFromNumber(n))

const metadata: BlockMetadata = {
  id: h(0xaa),
  epoch: 2n,
  round: 3n,
  proposer: addressFromNumber(0xb),
  previousBlockVotesBitvec: Uint8Array.of(0xf0),
  failedProposerIndices: [1, 2],
  timestampUsecs: 5n
}
const metadataHex = `${"aa".repeat(32)}${u64(2)}${u64(3)}${addrHex(0xb)}01f002${"01000000"}${"02000000"}${u64(5)}`

const hexOf = (t: Transaction) => toHex(Bcs.encode(transactionCodec, t))

describe("Transaction BCS layouts", () => {
  it("StateCheckpoint carries a HashValue: its 32 bytes, no length prefix", () => {
    expect(hexOf({ _tag: "StateCheckpoint", hash: h(1) })).toBe(`03${"01".repeat(32)}`)
  })

  it("BlockMetadata: id, epoch, round, proposer, votes bitvec, failed proposers (u32), timestamp", () => {
    expect(hexOf({ _tag: "BlockMetadata", metadata })).toBe(`02${metadataHex}`)
  })

  it("BlockMetadataExt V1 adds an optional Randomness", () => {
    const none = hexOf({ _tag: "BlockMetadataExt", metadata: { _tag: "V1", metadata, randomness: undefined } })
    expect(none).toBe(`0501${metadataHex}00`)
    const some = hexOf({
      _tag: "BlockMetadataExt",
      metadata: {
        _tag: "V1",
        metadata,
        randomness: { epoch: 2n, round: 3n, blockId: h(0xaa), timestamp: 5n, randomness: Uint8Array.of(7) }
      }
    })
    expect(some).toBe(`0501${metadataHex}01${u64(2)}${u64(3)}${"aa".repeat(32)}${u64(5)}0107`)
  })

  it("BlockEpilogue V0 and V1 (with fee distribution)", () => {
    const info = {
      blockGasLimitReached: true,
      blockOutputLimitReached: false,
      blockEffectiveBlockGasUnits: 9n,
      blockApproxOutputSize: 10n
    }
    const v0 = hexOf({ _tag: "BlockEpilogue", blockId: h(2), blockEndInfo: info })
    expect(v0).toBe(`0600${"02".repeat(32)}000100${u64(9)}${u64(10)}`)
    const v1 = hexOf({ _tag: "BlockEpilogue", blockId: h(2), blockEndInfo: info, feeDistribution: [[0n, 100n]] })
    expect(v1).toBe(`0601${"02".repeat(32)}000100${u64(9)}${u64(10)}0001${u64(0)}${u64(100)}`)
  })

  it("ValidatorTransaction DKGResult", () => {
    const t: Transaction = {
      _tag: "ValidatorTransaction",
      transaction: { _tag: "DKGResult", epoch: 4n, author: addressFromNumber(1), transcriptBytes: Uint8Array.of(1, 2) }
    }
    expect(hexOf(t)).toBe(`0400${u64(4)}${addrHex(1)}020102`)
  })

  it("rejects retired and unsupported payload variants with a clear reason", () => {
    const reason = (bytes: Uint8Array) => {
      const r = Bcs.decode(transactionPayloadCodec, bytes)
      return Result.isFailure(r) ? r.failure.reason : "decoded"
    }
    expect(reason(Uint8Array.of(1))).toMatch(/module bundle/)
    expect(reason(Uint8Array.of(5))).toMatch(/encrypted/)
    expect(reason(Uint8Array.of(4, 0, 3))).toMatch(/encrypted/)
    expect(reason(Uint8Array.of(9))).toMatch(/invalid TransactionPayload variant 9/)
    expect(Result.isFailure(Bcs.decode(rawTransactionCodec, new Uint8Array(10)))).toBe(true)
  })
})
