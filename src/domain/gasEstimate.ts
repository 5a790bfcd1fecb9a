/**
 * Gas-price estimate arithmetic (aptos-api-behaviour §6.3), pure. The node walks recent blocks and
 * computes each block's minimum inclusion price (full block: next bucket above its cheapest user
 * transaction; otherwise the on-chain minimum); these functions turn that list into the estimate.
 */

export interface GasEstimate {
  /** `deprioritized_gas_estimate` */
  readonly low: bigint
  /** `gas_estimate` */
  readonly market: bigint
  /** `prioritized_gas_estimate` */
  readonly aggressive: bigint
}

/** Mempool's default `broadcast_buckets`. */
export const defaultBroadcastBuckets: ReadonlyArray<bigint> = [
  0n,
  150n,
  300n,
  500n,
  1000n,
  3000n,
  5000n,
  10000n,
  100000n,
  1000000n
]

/**
 * `api.gas_estimation` of the reference (aptos-api-behaviour.md §6.2), plus mempool's broadcast
 * buckets (the prioritized estimate is rounded up to the next one). `incorporateReorderingEffects`
 * has no effect here: this node has no use-case-aware shuffler, so no block is discounted for it.
 */
export interface GasEstimationConfig {
  readonly enabled: boolean
  readonly fullBlockTxns: number
  readonly lowBlockHistory: number
  readonly marketBlockHistory: number
  readonly aggressiveBlockHistory: number
  readonly cacheExpirationMs: number
  readonly incorporateReorderingEffects: boolean
  /** A fixed answer (`static_override`), served verbatim when set. */
  readonly staticOverride: GasEstimate | undefined
  readonly buckets: ReadonlyArray<bigint>
}

export const defaultGasEstimationConfig: GasEstimationConfig = {
  enabled: true,
  fullBlockTxns: 250,
  lowBlockHistory: 10,
  marketBlockHistory: 30,
  aggressiveBlockHistory: 120,
  cacheExpirationMs: 500,
  incorporateReorderingEffects: true,
  staticOverride: undefined,
  buckets: defaultBroadcastBuckets
}

/** The first bucket strictly greater than `price`, else `price` itself. */
export const nextBucket = (price: bigint, buckets: ReadonlyArray<bigint> = defaultBroadcastBuckets): bigint => {
  for (const b of buckets) if (b > price) return b
  return price
}

/** The estimate when there is nothing to learn from: `{min, min, nextBucket(min)}`. */
export const defaultEstimate = (
  minGasUnitPrice: bigint,
  buckets: ReadonlyArray<bigint> = defaultBroadcastBuckets
): GasEstimate => ({ low: minGasUnitPrice, market: minGasUnitPrice, aggressive: nextBucket(minGasUnitPrice, buckets) })

/** bigint max (Math.max does not take bigints). */
const maxOf = (a: bigint, b: bigint): bigint => (a < b ? b : a)

const sorted = (xs: ReadonlyArray<bigint>): bigint[] => [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))

/**
 * The estimate from per-block minimum inclusion prices, newest block first:
 * low = min of the first `lowBlockHistory`; market = max(low, upper median of the first
 * `marketBlockHistory`); aggressive = nextBucket(max(market, 90th percentile of the first
 * `aggressiveBlockHistory`)). Undefined for an empty list (use `defaultEstimate`).
 */
export const estimateFromBlockPrices = (
  pricesNewestFirst: ReadonlyArray<bigint>,
  config: Pick<
    GasEstimationConfig,
    "lowBlockHistory" | "marketBlockHistory" | "aggressiveBlockHistory"
  > = defaultGasEstimationConfig,
  buckets: ReadonlyArray<bigint> = defaultBroadcastBuckets
): GasEstimate | undefined => {
  if (pricesNewestFirst.length === 0) return undefined
  const lowWindow = pricesNewestFirst.slice(0, Math.max(1, config.lowBlockHistory))
  let low = lowWindow[0]!
  for (const p of lowWindow) if (p < low) low = p
  const marketWindow = sorted(pricesNewestFirst.slice(0, Math.max(1, config.marketBlockHistory)))
  const median = marketWindow[Math.floor(marketWindow.length / 2)]!
  const market = maxOf(median, low)
  const all = sorted(pricesNewestFirst.slice(0, Math.max(1, config.aggressiveBlockHistory)))
  const p90 = all[Math.floor((all.length * 9) / 10)]!
  const aggressive = nextBucket(maxOf(p90, market), buckets)
  return { low, market, aggressive }
}
