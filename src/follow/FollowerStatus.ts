/**
 * The follower's lag reporting: what it knows of its source (the newest ledger version and
 * timestamp the source's headers reported), what it applied, and how late each block was applied
 * (apply time − the block's timestamp, which the source's proposer took from its wall clock: on one
 * machine that is the whole path from proposal to a follower's read, leader execution included).
 *
 * Rendered three ways: `GET /v1`'s `follow` object, Prometheus lines (`movenode_follow_*`) on the
 * metrics port, and `syncedWithin`, which `/-/healthy?duration_secs=N` consults on a follower.
 */

/** Prometheus histogram buckets for the apply lag, seconds. */
const BUCKETS = [0.002, 0.005, 0.01, 0.015, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]
/** Recent lags kept for the quantiles `GET /v1` reports. */
const RECENT = 4096

export type FollowerState = "starting" | "following" | "catching_up" | "source_unavailable" | "stopped"

export interface FollowerSnapshot {
  readonly source: string
  readonly state: FollowerState
  /** Why it stopped, or the last transient failure. */
  readonly lastError: string | undefined
  readonly appliedVersion: bigint | undefined
  readonly sourceVersion: bigint | undefined
  readonly sourceTimestampUsec: bigint | undefined
  /** Versions the source holds that this follower has not applied (0 when unknown). */
  readonly lagVersions: bigint
  /** Median and 99th percentile of the last blocks' apply lag, ms. */
  readonly lagP50Ms: number | undefined
  readonly lagP99Ms: number | undefined
  readonly appliedBlocks: number
  readonly appliedTransactions: number
}

export interface FollowerStatus {
  readonly snapshot: () => FollowerSnapshot
  /** The follower held everything its source reported at some moment within the last `ms`. */
  readonly syncedWithin: (ms: number) => boolean
  /** `follow` in `GET /v1`. */
  readonly json: () => Record<string, unknown>
  readonly prometheus: () => string
  // Written by the follower loop:
  readonly sawSource: (version: bigint | undefined, timestampUsec: bigint | undefined) => void
  readonly applied: (lastVersion: bigint, transactions: number, blockTimestampUsec: bigint, atMs: number) => void
  readonly caughtUp: (atMs: number) => void
  /**
   * The follower went back with its source (a local chain's revert) to `version`: what it applied
   * and what it knew of the source's head are forgotten down to there (the source's next head says).
   */
  readonly wentBack: (version: bigint) => void
  readonly setState: (state: FollowerState, error?: string) => void
}

const quantile = (sorted: ReadonlyArray<number>, q: number): number | undefined =>
  sorted.length === 0 ? undefined : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]

export const makeFollowerStatus = (source: string, initialVersion: bigint | undefined): FollowerStatus => {
  let state: FollowerState = "starting"
  let lastError: string | undefined
  let appliedVersion = initialVersion
  let sourceVersion: bigint | undefined
  let sourceTimestampUsec: bigint | undefined
  let syncedAtMs: number | undefined
  let appliedBlocks = 0
  let appliedTransactions = 0
  const recent = new Float64Array(RECENT)
  let recentCount = 0
  const buckets = BUCKETS.map(() => 0)
  let lagCount = 0
  let lagSum = 0

  const lagVersions = () =>
    sourceVersion === undefined
      ? 0n
      : sourceVersion > (appliedVersion ?? -1n)
        ? sourceVersion - (appliedVersion ?? -1n)
        : 0n

  // The quantiles sorted again only after new samples: GET /v1 (probed by balancers and harnesses
  // many times a second) would otherwise sort 4,096 numbers per request (~0.5 ms).
  let sortedAt = -1
  let sorted: ReadonlyArray<number> = []
  const snapshot = (): FollowerSnapshot => {
    if (sortedAt !== recentCount) {
      sorted = Array.from(recent.subarray(0, Math.min(recentCount, RECENT))).sort((a, b) => a - b)
      sortedAt = recentCount
    }
    return {
      source,
      state,
      lastError,
      appliedVersion,
      sourceVersion,
      sourceTimestampUsec,
      lagVersions: lagVersions(),
      lagP50Ms: quantile(sorted, 0.5),
      lagP99Ms: quantile(sorted, 0.99),
      appliedBlocks,
      appliedTransactions
    }
  }

  const round = (n: number | undefined) => (n === undefined ? null : Math.round(n * 100) / 100)

  return {
    snapshot,
    syncedWithin: (ms) => syncedAtMs !== undefined && Date.now() - syncedAtMs <= ms,
    json: () => {
      const s = snapshot()
      return {
        source: s.source,
        state: s.state,
        applied_version: s.appliedVersion?.toString() ?? null,
        source_ledger_version: s.sourceVersion?.toString() ?? null,
        lag_versions: s.lagVersions.toString(),
        lag_p50_ms: round(s.lagP50Ms),
        lag_p99_ms: round(s.lagP99Ms),
        ...(s.lastError === undefined ? {} : { last_error: s.lastError })
      }
    },
    prometheus: () => {
      const s = snapshot()
      const lines = [
        "# HELP movenode_follow_applied_version The newest version this follower applied.",
        "# TYPE movenode_follow_applied_version gauge",
        `movenode_follow_applied_version ${s.appliedVersion ?? -1}`,
        "# HELP movenode_follow_source_version The newest version the source reported.",
        "# TYPE movenode_follow_source_version gauge",
        `movenode_follow_source_version ${s.sourceVersion ?? -1}`,
        "# HELP movenode_follow_lag_versions Versions the source holds that this follower has not applied.",
        "# TYPE movenode_follow_lag_versions gauge",
        `movenode_follow_lag_versions ${s.lagVersions}`,
        "# HELP movenode_follow_applied_transactions_total Transactions applied since start.",
        "# TYPE movenode_follow_applied_transactions_total counter",
        `movenode_follow_applied_transactions_total ${s.appliedTransactions}`,
        "# HELP movenode_follow_up 1 while following (not stopped, source reachable).",
        "# TYPE movenode_follow_up gauge",
        `movenode_follow_up ${s.state === "following" || s.state === "catching_up" ? 1 : 0}`,
        "# HELP movenode_follow_apply_lag_seconds Block applied here minus the block's timestamp.",
        "# TYPE movenode_follow_apply_lag_seconds histogram"
      ]
      for (let i = 0; i < BUCKETS.length; i++)
        lines.push(`movenode_follow_apply_lag_seconds_bucket{le="${BUCKETS[i]}"} ${buckets[i]}`)
      lines.push(`movenode_follow_apply_lag_seconds_bucket{le="+Inf"} ${lagCount}`)
      lines.push(`movenode_follow_apply_lag_seconds_sum ${lagSum}`)
      lines.push(`movenode_follow_apply_lag_seconds_count ${lagCount}`)
      return lines.join("\n") + "\n"
    },
    sawSource: (version, timestampUsec) => {
      if (version !== undefined && (sourceVersion === undefined || version > sourceVersion)) {
        sourceVersion = version
        sourceTimestampUsec = timestampUsec
      }
    },
    applied: (lastVersion, transactions, blockTimestampUsec, atMs) => {
      appliedVersion = lastVersion
      appliedBlocks++
      appliedTransactions += transactions
      if (sourceVersion === undefined || lastVersion > sourceVersion) sourceVersion = lastVersion
      if (lastVersion >= sourceVersion) syncedAtMs = atMs
      // Genesis (timestamp 0) says nothing about lag.
      if (blockTimestampUsec === 0n) return
      const lagMs = Math.max(0, atMs - Number(blockTimestampUsec) / 1000)
      recent[recentCount % RECENT] = lagMs
      recentCount++
      lagCount++
      lagSum += lagMs / 1000
      for (let i = 0; i < BUCKETS.length; i++) if (lagMs / 1000 <= BUCKETS[i]!) buckets[i]!++
    },
    caughtUp: (atMs) => {
      syncedAtMs = atMs
    },
    wentBack: (version) => {
      appliedVersion = version
      // The head seen before the source went back is no longer its head (lag would count it).
      sourceVersion = undefined
      sourceTimestampUsec = undefined
    },
    setState: (next, error) => {
      state = next
      if (error !== undefined) lastError = error
    }
  }
}
