import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { Ledger } from "../../src/ledger/Ledger.js"
import { GasEstimator } from "../../src/node/GasEstimator.js"
import { LedgerMemory } from "../../src/ledger/index.js"
import { makeNodeConfig, nodeConfigLayer } from "../../src/node/NodeConfig.js"
import { readLedgerInfo } from "../../src/node/LedgerVersion.js"
import { Bcs } from "../../src/bcs/index.js"
import {
  block,
  commitAll,
  devnetGenesis,
  mainnetGenesis,
  ONE,
  servicesLayer,
  struct,
  toCommit,
  userTransaction,
  userTransactions,
  writeResource
} from "./fixtures.js"
import { hasGenesis } from "../support/genesis.js"

const estimateNow = Effect.gen(function* () {
  const ledger = yield* Ledger
  const gas = yield* GasEstimator
  const info = yield* readLedgerInfo(ledger)
  const e = yield* gas.estimate(info)
  return [e.low, e.market, e.aggressive] as const
})

/** A fresh estimator (empty caches) over the same ledger: what the cached one must agree with. */
const estimateFresh = estimateNow.pipe(Effect.provide(Layer.fresh(GasEstimator.layer)))

const small = makeNodeConfig({
  gasEstimation: { fullBlockTxns: 3, lowBlockHistory: 2, marketBlockHistory: 4, aggressiveBlockHistory: 6 }
})

describe("GasEstimator", () => {
  it.effect("answers 100 / 100 / 150 at devnet genesis (on-chain minimum, next bucket)", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(yield* estimateNow, [100n, 100n, 150n])
    }).pipe(Effect.provide(servicesLayer()))
  )

  it.effect("prices eleven full blocks (250 user transactions) at the next bucket, skipping the latest", () =>
    Effect.gen(function* () {
      // Epoch 1: the genesis block (epoch 0) is outside the current epoch and never counts.
      yield* commitAll(Array.from({ length: 11 }, (_, i) => block(1n, BigInt(i), userTransactions(250, 150n))))
      // Ten full blocks at min price 150 → 300 each; aggressive = next bucket of 300.
      assert.deepStrictEqual(yield* estimateNow, [300n, 300n, 500n])
    }).pipe(Effect.provide(servicesLayer()))
  )

  it.effect("treats blocks below 250 user transactions as priced at the on-chain minimum", () =>
    Effect.gen(function* () {
      yield* commitAll(Array.from({ length: 11 }, (_, i) => block(1n, BigInt(i), userTransactions(249, 5000n))))
      assert.deepStrictEqual(yield* estimateNow, [100n, 100n, 150n])
    }).pipe(Effect.provide(servicesLayer()))
  )

  it.effect("treats empty blocks as priced at the on-chain minimum", () =>
    Effect.gen(function* () {
      yield* commitAll(Array.from({ length: 10 }, (_, i) => block(1n, BigInt(i), [])))
      assert.deepStrictEqual(yield* estimateNow, [100n, 100n, 150n])
    }).pipe(Effect.provide(servicesLayer()))
  )

  it.effect("mixes full, empty and epilogue-limited blocks into low / market / aggressive", () =>
    Effect.gen(function* () {
      yield* commitAll([
        block(1n, 1n, userTransactions(3, 1_000_000n)), // B1: outside the 6-block window
        block(1n, 2n, userTransactions(3, 100_000n)), // B2: full → 1,000,000
        block(1n, 3n, userTransactions(3, 900n, 500n)), // B3: full, cheapest 500 → 1000
        block(1n, 4n, userTransactions(2, 5000n), { epilogueLimitReached: false }), // B4: not full → 100
        block(1n, 5n, userTransactions(1, 150n), { epilogueLimitReached: true }), // B5: limit reached → 300
        block(1n, 6n, []), // B6: empty → 100
        block(1n, 7n, userTransactions(3, 1000n)), // B7: full → 3000
        block(1n, 8n, userTransactions(3, 1_000_000n)) // B8: latest, skipped
      ])
      // Newest first: [3000, 100, 300, 100, 1000, 1000000].
      // low = min(3000, 100); market = upper median of the first four (300);
      // aggressive = next bucket of max(market, p90 of all = 1,000,000) = 1,000,000 (no higher bucket).
      assert.deepStrictEqual(yield* estimateNow, [100n, 300n, 1_000_000n])
    }).pipe(Effect.provide(servicesLayer(undefined, small)))
  )

  it.effect("uses only the current epoch's blocks", () =>
    Effect.gen(function* () {
      yield* commitAll(Array.from({ length: 6 }, (_, i) => block(1n, BigInt(i), userTransactions(3, 5000n))))
      // One block of epoch 2: the latest is skipped, the one before is another epoch → default.
      yield* commitAll([block(2n, 0n, userTransactions(3, 5000n))])
      assert.deepStrictEqual(yield* estimateFresh, [100n, 100n, 150n])
      // Two more epoch-2 blocks: the two below the latest (full at 5000 → 10,000) count, epoch 1 does not.
      yield* commitAll([block(2n, 1n, userTransactions(3, 5000n)), block(2n, 2n, [])])
      assert.deepStrictEqual(yield* estimateFresh, [10_000n, 10_000n, 100_000n])
    }).pipe(Effect.provide(servicesLayer(undefined, small)))
  )

  it.effect("caches the estimate for 500 ms of the clock", () =>
    Effect.gen(function* () {
      yield* commitAll(Array.from({ length: 4 }, (_, i) => block(1n, BigInt(i), userTransactions(3, 150n))))
      const first = yield* estimateNow
      assert.deepStrictEqual(first, [300n, 300n, 500n])
      yield* commitAll(Array.from({ length: 8 }, (_, i) => block(1n, BigInt(10 + i), userTransactions(3, 5000n))))
      assert.deepStrictEqual(yield* estimateNow, first)
      yield* TestClock.adjust(499)
      assert.deepStrictEqual(yield* estimateNow, first)
      yield* TestClock.adjust(1)
      assert.deepStrictEqual(yield* estimateNow, [10_000n, 10_000n, 100_000n])
    }).pipe(Effect.provide(servicesLayer(undefined, small)))
  )

  it.effect("peek answers without a ledger read only what estimate would answer (fresh, same epoch)", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const gas = yield* GasEstimator
      const info = yield* readLedgerInfo(ledger)
      // Cold: the minimum price and the estimate are unknown. The test clock starts at 0 ms.
      assert.isUndefined(gas.peek(info, 0))
      const first = yield* gas.estimate(info)
      assert.strictEqual(gas.peek(info, 0), first)
      assert.strictEqual(gas.peek(info, 499), first)
      assert.isUndefined(gas.peek(info, 500))
      assert.isUndefined(gas.peek({ ...info, epoch: info.epoch + 1n }, 0))
    }).pipe(Effect.provide(servicesLayer(undefined, small)))
  )

  it.effect("keeps at most the aggressive history of block prices and reuses them consistently", () =>
    Effect.gen(function* () {
      const gas = yield* GasEstimator
      const prices = [150n, 300n, 500n, 1000n, 3000n, 5000n, 10_000n, 150n, 100_000n, 300n, 500n, 1000n]
      yield* commitAll(prices.map((p, i) => block(1n, BigInt(i), userTransactions(3, p))))
      // Window B10..B5, newest first: [1000, 500, 1000000, 300, 100000, 10000].
      const first = yield* estimateNow
      assert.deepStrictEqual(first, [500n, 1000n, 1_000_000n])
      assert.deepStrictEqual(first, yield* estimateFresh)
      assert.strictEqual(yield* gas.cachedBlockPrices, 6)
      // Three more blocks: the walk stops at the first cached block and fills the window from the cache.
      yield* commitAll([3000n, 150n, 5000n].map((p, i) => block(1n, BigInt(20 + i), userTransactions(3, p))))
      yield* TestClock.adjust(500)
      // B21, B20, B11 read; B10, B9, B8 from the cache: [300, 5000, 3000, 1000, 500, 1000000].
      const second = yield* estimateNow
      assert.deepStrictEqual(second, [300n, 3000n, 1_000_000n])
      assert.deepStrictEqual(second, yield* estimateFresh)
      assert.strictEqual(yield* gas.cachedBlockPrices, 6)
    }).pipe(Effect.provide(servicesLayer(undefined, small)))
  )

  it.effect("drops cached block prices when the epoch changes", () =>
    Effect.gen(function* () {
      const gas = yield* GasEstimator
      yield* commitAll(Array.from({ length: 5 }, (_, i) => block(1n, BigInt(i), userTransactions(3, 150n))))
      yield* estimateNow
      assert.strictEqual(yield* gas.cachedBlockPrices, 4)
      yield* commitAll([block(2n, 0n, []), block(2n, 1n, []), block(2n, 2n, [])])
      assert.deepStrictEqual(yield* estimateNow, [100n, 100n, 150n])
      assert.strictEqual(yield* gas.cachedBlockPrices, 2)
    }).pipe(Effect.provide(servicesLayer(undefined, small)))
  )

  it.effect("reads the blocks once for a burst of concurrent requests on a cold cache", () =>
    Effect.gen(function* () {
      const handle = yield* LedgerMemory.make({ genesis: devnetGenesis })
      yield* Effect.provideService(
        commitAll(Array.from({ length: 8 }, (_, i) => block(1n, BigInt(i), userTransactions(3, 150n)))),
        Ledger,
        handle.service
      )
      let reads = 0
      const counted = {
        ...handle.service,
        // Yielding on every read lets the concurrent requests interleave, as a slow store would.
        transactionByVersion: (v: bigint) => {
          reads++
          return Effect.flatMap(Effect.yieldNow, () => handle.service.transactionByVersion(v))
        }
      }
      const results = yield* Effect.all(
        Array.from({ length: 8 }, () => estimateNow),
        { concurrency: "unbounded" }
      ).pipe(
        Effect.provide(GasEstimator.layer),
        Effect.provideService(Ledger, counted),
        Effect.provide(nodeConfigLayer(small))
      )
      for (const r of results) assert.deepStrictEqual(r, [300n, 300n, 500n])
      // Six blocks of the window (the latest skipped), four transactions each, read once in all.
      assert.strictEqual(reads, 24)
    })
  )

  it.effect.skipIf(!hasGenesis("mainnet"))("answers 100 / 100 / 150 at mainnet genesis too", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(yield* estimateNow, [100n, 100n, 150n])
    }).pipe(Effect.provide(servicesLayer({ genesis: mainnetGenesis() })))
  )

  it.effect("reads the minimum price from the legacy GasSchedule, once per epoch", () =>
    Effect.gen(function* () {
      const schedule = (price: bigint) =>
        toCommit(userTransaction(ONE, price, 100n), [
          writeResource(
            ONE,
            struct(ONE, "gas_schedule", "GasSchedule"),
            Bcs.encode(Bcs.vector(Bcs.struct({ key: Bcs.string, val: Bcs.u64 })), [
              { key: "txn.min_price_per_gas_unit", val: price }
            ])
          )
        ])
      yield* commitAll([block(1n, 0n, [schedule(42n)])])
      assert.deepStrictEqual(yield* estimateNow, [42n, 42n, 150n])
      // A new schedule within the epoch is not read until the epoch changes (the reference's cache).
      yield* commitAll([block(1n, 1n, [schedule(77n)])])
      yield* TestClock.adjust(500)
      assert.deepStrictEqual(yield* estimateNow, [42n, 42n, 150n])
      yield* commitAll([block(2n, 0n, [])])
      assert.deepStrictEqual(yield* estimateNow, [77n, 77n, 150n])
    }).pipe(Effect.provide(servicesLayer({ chainId: 4 })))
  )

  it.effect("answers the default when disabled, whatever the blocks", () =>
    Effect.gen(function* () {
      yield* commitAll(Array.from({ length: 5 }, (_, i) => block(1n, BigInt(i), userTransactions(3, 5000n))))
      assert.deepStrictEqual(yield* estimateNow, [100n, 100n, 150n])
    }).pipe(
      Effect.provide(servicesLayer(undefined, makeNodeConfig({ gasEstimation: { enabled: false, fullBlockTxns: 3 } })))
    )
  )

  it.effect("answers a static override verbatim", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(yield* estimateNow, [7n, 8n, 9n])
    }).pipe(
      Effect.provide(
        servicesLayer(
          undefined,
          makeNodeConfig({ gasEstimation: { staticOverride: { low: 7n, market: 8n, aggressive: 9n } } })
        )
      )
    )
  )

  it.effect("is a 500 when the state holds no gas schedule", () =>
    Effect.gen(function* () {
      yield* commitAll([block(0n, 0n, [])])
      const ledger = yield* Ledger
      const gas = yield* GasEstimator
      const error = yield* Effect.flip(gas.estimate(yield* readLedgerInfo(ledger)))
      assert.strictEqual(error.status, 500)
      assert.strictEqual(error.code, "internal_error")
      assert.isDefined(error.ledger)
    }).pipe(Effect.provide(servicesLayer({ chainId: 4 })))
  )
})
