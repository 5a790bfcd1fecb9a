/**
 * The indexer's worker thread runs below the chain's priority (a nice value of its own), which
 * leaves it only what the chain does not use: a chain using both cores at full speed leaves it too
 * little, and the index would fall further behind for as long as the load lasts. This policy bounds
 * that lag: past `catchUpBehind` versions behind, the thread takes the chain's priority back (nice
 * 0: an equal share of the cores, never more — the chain shares, it is not held back) until it is
 * within `relaxBehind` versions again, then lowers it again.
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
}

export const DEFAULT_CATCH_UP_BEHIND = 500n
export const DEFAULT_RELAX_BEHIND = 100n

/** `onBehind` for `followLedger`: called at every look at the ledger with the versions the index is behind. */
export const catchUpPriority = (options: CatchUpPriorityOptions): ((versionsBehind: bigint) => void) => {
  const catchUpBehind = options.catchUpBehind ?? DEFAULT_CATCH_UP_BEHIND
  const relaxBehind = options.relaxBehind ?? DEFAULT_RELAX_BEHIND
  let raised = false
  return (behind) => {
    if (!raised && behind > catchUpBehind) raised = options.setNice(0)
    else if (raised && behind <= relaxBehind) raised = !options.setNice(options.nice)
  }
}
