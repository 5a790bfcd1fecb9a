import { readFileSync } from "node:fs"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import fc from "fast-check"
import { applySourceBlock } from "../../src/follow/applySourceBlock.js"
import { checkTransaction } from "../../src/follow/checkTransaction.js"
import {
  decodeSourceBlock,
  decodeSourceTransactionData,
  decodeSourceTransactions
} from "../../src/follow/sourceBlock.js"
import { emptyAccumulator } from "../../src/domain/MerkleAccumulator.js"
import { LedgerMemory } from "../../src/ledger/index.js"
import { makeLedgerService } from "../../src/ledger/makeLedgerService.js"
import { makeMemoryBackend } from "../../src/ledger/MemoryBackend.js"
import { blockBcs, transactionDataBcs, transactionsBcs } from "../../src/node/render/transactionBcs.js"
import { genesisPath } from "../support/genesis.js"

const devnet = new Uint8Array(readFileSync(genesisPath("devnet")))

/** A source ledger holding the devnet genesis, and its block 0 as the feed sends it. */
const sourceGenesis = Effect.gen(function* () {
  const source = yield* LedgerMemory.make({ genesis: devnet })
  const block = yield* source.service.blockByHeight(0n)
  const txns = yield* source.service.transactionsFrom(0n, 1)
  return { bytes: blockBcs(block, new Uint8Array(32), txns), txns }
})

const newFollowerLedger = () => makeLedgerService(makeMemoryBackend(), {})

describe("follow: the source's answers, decoded and checked", () => {
  it.effect(
    "a genesis block decodes with its bytes kept, passes every check, and applies as the source stored it",
    () =>
      Effect.gen(function* () {
        const { bytes, txns } = yield* sourceGenesis
        const block = Result.getOrThrow(decodeSourceBlock(bytes))
        assert.strictEqual(block.transactions!.length, 1)
        const t = block.transactions![0]!
        assert.notInstanceOf(checkTransaction(t, 0n, emptyAccumulator), Error)
        // The list and by_version forms decode to the same transaction.
        const list = Result.getOrThrow(decodeSourceTransactions(transactionsBcs(txns)))
        assert.deepStrictEqual(list[0]!.bytes.info, t.bytes.info)
        assert.strictEqual(Result.getOrThrow(decodeSourceTransactionData(transactionDataBcs(txns[0]!))).version, 0n)
        const follower = newFollowerLedger()
        const info = yield* applySourceBlock(follower, block)
        assert.strictEqual(info.lastVersion, 0n)
        const stored = yield* follower.service.transactionByVersion(0n)
        assert.deepStrictEqual(stored.accumulatorRootHash, txns[0]!.accumulatorRootHash)
        assert.deepStrictEqual(stored.info, txns[0]!.info)
        assert.strictEqual(
          (yield* follower.service.ledgerInfo).chainId,
          (yield* (yield* LedgerMemory.make({ genesis: devnet })).service.ledgerInfo).chainId
        )
        // The same block again is not the next block: refused, nothing written.
        const again = yield* Effect.flip(applySourceBlock(follower, block))
        assert.strictEqual(again._tag, "SourceDiverged")
      })
  )

  it.effect(
    "a changed bit anywhere in a transaction (its info, events, root or write set) fails to decode or fails a check",
    () =>
      Effect.gen(function* () {
        const { bytes } = yield* sourceGenesis
        const good = Result.getOrThrow(decodeSourceBlock(bytes)).transactions![0]!
        // After the block's header (5 fields, 64 bytes), the option tag and the count: the transaction.
        fc.assert(
          fc.property(fc.integer({ min: 66, max: bytes.length - 1 }), fc.integer({ min: 0, max: 7 }), (offset, bit) => {
            const tampered = bytes.slice()
            tampered[offset] = tampered[offset]! ^ (1 << bit)
            const decoded = decodeSourceBlock(tampered)
            if (Result.isFailure(decoded)) return
            const checked = checkTransaction(decoded.success.transactions![0]!, 0n, emptyAccumulator)
            assert.instanceOf(checked, Error, `a flipped bit at byte ${offset} passed the checks`)
          }),
          { numRuns: 60 }
        )
        // A follower holding another history (another accumulator): SourceDiverged, naming both roots.
        const other = checkTransaction(good, 0n, { frozen: [new Uint8Array(32)], leaves: 1n })
        assert.strictEqual((other as { _tag: string })._tag, "SourceDiverged")
        assert.match((other as Error).message, /diverges/)
      })
  )

  it("garbage never throws out of the decoders", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
        const outcomes: ReadonlyArray<Result.Result<unknown, unknown>> = [
          decodeSourceBlock(bytes),
          decodeSourceTransactions(bytes),
          decodeSourceTransactionData(bytes)
        ]
        for (const r of outcomes) assert.isTrue(Result.isSuccess(r) || Result.isFailure(r))
      }),
      { numRuns: 2000 }
    )
  })

  it.effect("a valid block with bytes cut or extended fails to decode, never throws", () =>
    Effect.gen(function* () {
      const { bytes } = yield* sourceGenesis
      fc.assert(
        fc.property(fc.integer({ min: 0, max: bytes.length - 1 }), fc.uint8Array({ maxLength: 8 }), (cut, extra) => {
          const shorter = decodeSourceBlock(bytes.subarray(0, cut))
          assert.isTrue(Result.isFailure(shorter))
          if (extra.length > 0) {
            const longer = new Uint8Array(bytes.length + extra.length)
            longer.set(bytes)
            longer.set(extra, bytes.length)
            assert.isTrue(Result.isFailure(decodeSourceBlock(longer)))
          }
        }),
        { numRuns: 200 }
      )
    })
  )
})
