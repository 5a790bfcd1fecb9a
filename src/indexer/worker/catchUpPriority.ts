/**
 * The indexer's worker thread runs below the chain's priority (a nice value of its own), which
 * leaves it only what the chain does not use: a chain using both cores at full speed leaves it too
 * little, and the index would fall further behind for as long as the load lasts. This policy bounds
 * that lag: when the index is more than `catchUpBehind` versions behind the ledger, or has not yet
 * reached the version the ledger had `catchUpAfterMs` ago (a slower chain on a starved machine:
 * few versions, but seconds), the thread takes the chain's priority back (nice 0: an equal share of
 * the cores, never more — the chain shares, it is not held back) until it is within `relaxBehind`
 * versions again, then lowers it again. (A lag counted in versions alone would also trip on the
 * size of one block: a block of a few hundred transfers appears at once.)
 *
 * Under a sustained flood of full blocks (~250 versions each, arriving faster than the index's
 * batches of two) the index is never within `relaxBehind`, so once raised it stays at the chain's
 * priority until the load ends (seen in session 28: raised ~10 s into some 20 s runs at full load,
 * never in others). A trial that also lowered it once the index had reached the version the ledger
 * had 250 ms before (docs/benchmarks.md, session 28) toggled it five to seven times a run and changed
 * nothing measurable (two interleaved pairs of throughput runs); not kept.
 *
 * Raising a thread's priority takes the right to (root, or `RLIMIT_NICE`): when `setNice(0)` fails
 * the thread stays lowered and catches up once the load stops, as without the policy.
 */
export interface CatchUpPriorityOptions {
  /** The lowered nice value (the thread's usual one). */
  readonly nice: number
  /** Sets the thread's nice value; false when it could not. */
  readonly setNice: (nice: number) => boolean
  readonly catchUpBehind?: bigint | undefined
  readonly relaxBehind?: bigint | undefined
  readonly catchUpAfterMs?: number | undefined
  /** Milliseconds (a clock; `performance.now` by default). */
  readonly now?: (() => number) | undefined
}

/** Four full blocks: above what gathering two blocks per batch leaves waiting (`gatherPolicy.ts`). */
export const DEFAULT_CATCH_UP_BEHIND = 1_000n
export const DEFAULT_RELAX_BEHIND = 100n
export const DEFAULT_CATCH_UP_AFTER_MS = 500

/** `onLook` for `followLedger`: called at every look at the ledger with its last version and the index's. */
export const catchUpPriority = (
  options: CatchUpPriorityOptions
): ((ledgerVersion: bigint, indexedVersion: bigint) => void) => {
  const catchUpBehind = options.catchUpBehind ?? DEFAULT_CATCH_UP_BEHIND
  const relaxBehind = options.relaxBehind ?? DEFAULT_RELAX_BEHIND
  const catchUpAfterMs = options.catchUpAfterMs ?? DEFAULT_CATCH_UP_AFTER_MS
  const now = options.now ?? (() => performance.now())
  let raised = false
  /** The ledger's versions as seen, oldest first, at most `catchUpAfterMs` old (and the last older one). */
  const seen: Array<{ readonly at: number; readonly version: bigint }> = []
  return (ledgerVersion, indexedVersion) => {
    const t = now()
    if (seen.length === 0 || seen[seen.length - 1]!.version !== ledgerVersion)
      seen.push({ at: t, version: ledgerVersion })
    // Keep one look at least `catchUpAfterMs` old: the version the ledger had then.
    while (seen.length > 1 && t - seen[1]!.at >= catchUpAfterMs) seen.shift()
    const then = t - seen[0]!.at >= catchUpAfterMs ? seen[0]!.version : undefined
    const behind = ledgerVersion > indexedVersion ? ledgerVersion - indexedVersion : 0n
    if (behind <= relaxBehind) {
      if (raised) raised = !options.setNice(options.nice)
    } else if (!raised && (behind > catchUpBehind || (then !== undefined && indexedVersion < then)))
      raised = options.setNice(0)
  }
}
