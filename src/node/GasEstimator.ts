import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import * as Semaphore from "effect/Semaphore"
import { ApiErrors, type ApiError } from "../domain/ApiError.js"
import { forgetOnRewind } from "./forgetOnRewind.js"
import { defaultEstimate, estimateFromBlockPrices, nextBucket } from "../domain/gasEstimate.js"
import type { LedgerInfo } from "../domain/LedgerInfo.js"
import { type BlockInfo, Ledger } from "../ledger/Ledger.js"
import { apiErrorFromLedger } from "./apiErrorFromLedger.js"
import { blockMinInclusionPrice, readBlockGasFacts } from "./blockMinInclusionPrice.js"
import { minGasUnitPrice } from "./minGasUnitPrice.js"
import type { GasEstimate } from "../domain/gasEstimate.js"
import { NodeConfig } from "./NodeConfig.js"

export interface GasEstimatorService {
  /** The estimate at `ledger` (the latest ledger info), per aptos-api-behaviour.md §6.3. */
  readonly estimate: (ledger: LedgerInfo) => Effect.Effect<GasEstimate, ApiError>
  /**
   * The estimate at `ledger` when it needs no ledger read (what `estimate` would answer at `nowMs`),
   * else `undefined`: lets the node answer a cached estimate without running an effect.
   */
  readonly peek: (ledger: LedgerInfo, nowMs: number) => GasEstimate | undefined
  /** How many per-block prices are cached (bounded by the aggressive history); for tests and metrics. */
  readonly cachedBlockPrices: Effect.Effect<number>
}

interface CachedEstimate {
  readonly epoch: bigint
  readonly atMs: number
  readonly estimate: GasEstimate
}

/**
 * `/estimate_gas_price`: the on-chain minimum gas price (cached per epoch) and the minimum inclusion
 * prices of the recent blocks of the current epoch (cached per block, keyed by the block's last
 * version; cleared when the epoch changes), reduced to three estimates, themselves cached for
 * `cacheExpirationMs`. One computation at a time (a one-permit semaphore, the reference's write
 * lock) so a burst of requests on a cold cache reads the blocks once.
 */
export class GasEstimator extends Context.Service<GasEstimator, GasEstimatorService>()("movenode/node/GasEstimator") {
  static readonly layer = Layer.effect(
    GasEstimator,
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const config = (yield* NodeConfig).gasEstimation
      const bucketUp = (p: bigint) => nextBucket(p, config.buckets)
      const lock = yield* Semaphore.make(1)

      let schedule: { readonly epoch: bigint; readonly price: bigint } | undefined
      let cached: CachedEstimate | undefined
      let blockPricesEpoch: bigint | undefined
      /** Block last version → its minimum inclusion price, for `blockPricesEpoch` only. */
      const blockPrices = new Map<bigint, bigint>()
      // After a rewind the same last versions name other blocks.
      const rewound = forgetOnRewind(ledger, () => {
        blockPrices.clear()
        cached = undefined
      })

      const fallback = (min: bigint): GasEstimate => defaultEstimate(min, config.buckets)

      const minPrice = (info: LedgerInfo): Effect.Effect<bigint, ApiError> =>
        Effect.gen(function* () {
          if (schedule !== undefined && schedule.epoch === info.epoch) return schedule.price
          const state = yield* Effect.mapError(ledger.stateAt(info.ledgerVersion), (e) =>
            apiErrorFromLedger(e, info, "Failed to read the gas schedule")
          )
          const price = minGasUnitPrice(state)
          if (price === undefined)
            return yield* Effect.fail(ApiErrors.internal("Failed to retrieve gas schedule", info))
          schedule = { epoch: info.epoch, price }
          return price
        })

      const fresh = (epoch: bigint, nowMs: number): GasEstimate | undefined =>
        cached !== undefined && cached.epoch === epoch && nowMs - cached.atMs < config.cacheExpirationMs
          ? cached.estimate
          : undefined

      const remember = (epoch: bigint, estimate: GasEstimate) =>
        Effect.map(Clock.currentTimeMillis, (atMs) => {
          cached = { epoch, atMs, estimate }
          return estimate
        })

      const blockAt = (version: bigint): Effect.Effect<BlockInfo | undefined> =>
        Effect.map(Effect.result(ledger.blockByVersion(version)), (r) => (Result.isSuccess(r) ? r.success : undefined))

      /**
       * Newest first: the blocks of the current epoch below the latest one, up to the first cached
       * one. On a fork, only its own blocks (`firstOwnVersion` on): the source's market is not the
       * fork's, and its blocks would each be fetched from the source (hundreds of requests on a
       * busy network's first estimate).
       */
      const walkBlocks = (info: LedgerInfo) =>
        Effect.gen(function* () {
          const epoch = info.epoch
          const floor = ledger.firstOwnVersion ?? 0n
          let lookup = info.ledgerVersion
          if (lookup < floor) return { blocks: [] as BlockInfo[], cacheHit: false, lookup }
          // The latest block may still be partial: skip it.
          const latest = yield* blockAt(lookup)
          if (latest !== undefined && latest.epoch === epoch)
            lookup = latest.firstVersion > 0n ? latest.firstVersion - 1n : 0n
          const blocks: BlockInfo[] = []
          let cacheHit = false
          for (let i = 0; i < config.aggressiveBlockHistory; i++) {
            if (blockPrices.has(lookup)) {
              cacheHit = true
              break
            }
            if (lookup < floor) break
            const block = yield* blockAt(lookup)
            if (block === undefined || block.epoch !== epoch) break
            lookup = block.firstVersion > 0n ? block.firstVersion - 1n : 0n
            blocks.push(block)
            if (lookup === 0n) break
          }
          return { blocks, cacheHit, lookup }
        })

      const compute = (info: LedgerInfo, min: bigint) =>
        Effect.gen(function* () {
          rewound()
          if (blockPricesEpoch !== info.epoch) {
            blockPrices.clear()
            blockPricesEpoch = info.epoch
          }
          const { blocks, cacheHit, lookup } = yield* walkBlocks(info)
          if (blocks.length === 0 && !cacheHit) return yield* remember(info.epoch, fallback(min))
          const prices: bigint[] = []
          for (const block of blocks) {
            const facts = yield* Effect.result(readBlockGasFacts(ledger, block))
            // As the reference: a block that cannot be read counts at the minimum price.
            const price = Result.isSuccess(facts)
              ? blockMinInclusionPrice(facts.success, config.fullBlockTxns, min, bucketUp)
              : min
            prices.push(price)
            blockPrices.set(block.lastVersion, price)
          }
          if (cacheHit) {
            const older = [...blockPrices.keys()]
              .filter((k) => k <= lookup)
              .sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))
            for (const k of older.slice(0, config.aggressiveBlockHistory - blocks.length))
              prices.push(blockPrices.get(k)!)
          }
          const computed = estimateFromBlockPrices(prices, config, config.buckets)
          // Only possible if the cache were inconsistent; the reference answers the default, uncached.
          if (computed === undefined) return fallback(min)
          const estimate = computed
          // Keep the newest `aggressiveBlockHistory` block prices.
          if (blockPrices.size > config.aggressiveBlockHistory) {
            const keys = [...blockPrices.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
            for (const k of keys.slice(0, keys.length - config.aggressiveBlockHistory)) blockPrices.delete(k)
          }
          return yield* remember(info.epoch, estimate)
        })

      /** The answer when no ledger read is needed (minimum price known for the epoch, estimate fresh). */
      const peek = (info: LedgerInfo, nowMs: number): GasEstimate | undefined => {
        if (schedule === undefined || schedule.epoch !== info.epoch) return undefined
        if (!config.enabled) return fallback(schedule.price)
        if (config.staticOverride !== undefined) return config.staticOverride
        return fresh(info.epoch, nowMs)
      }

      const computeEstimate = (info: LedgerInfo): Effect.Effect<GasEstimate, ApiError> =>
        Effect.gen(function* () {
          const min = yield* minPrice(info)
          if (!config.enabled) return fallback(min)
          if (config.staticOverride !== undefined) return config.staticOverride
          const hit = fresh(info.epoch, yield* Clock.currentTimeMillis)
          if (hit !== undefined) return hit
          return yield* lock.withPermit(
            Effect.gen(function* () {
              // Another fiber may have computed it while this one waited.
              const again = fresh(info.epoch, yield* Clock.currentTimeMillis)
              return again ?? (yield* compute(info, min))
            })
          )
        })

      // The hot path (a cached answer) reads the clock directly and allocates no generator.
      const estimate = (info: LedgerInfo): Effect.Effect<GasEstimate, ApiError> =>
        Clock.clockWith((clock) => {
          const hit = peek(info, clock.currentTimeMillisUnsafe())
          return hit !== undefined ? Effect.succeed(hit) : computeEstimate(info)
        })

      return GasEstimator.of({ estimate, peek, cachedBlockPrices: Effect.sync(() => blockPrices.size) })
    })
  )
}
