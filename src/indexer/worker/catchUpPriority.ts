/**
 * The indexer's worker thread runs below the chain's priority (a nice value of its own), which
 * leaves it only what the chain does not use: a chain using both cores at full speed leaves it too
 * little, and the index would fall further behind for as long as the load lasts. This policy bounds
 * that lag: when the index is more than `catchUpBehind` versions behind, or has been more than
 * `relaxBehind` versions behind for `catchUpAfterMs` (a slower chain on a starved machine: few
 * versions, but seconds), the thread takes the chain's priority back (nice 0: an equal share of
 * the cores, never more — the chain shares, it is not held back) until it is within `relaxBehind`
 * versions again, then lowers it again.
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

export const DEFAULT_CATCH_UP_BEHIND = 500n
export const DEFAULT_RELAX_BEHIND = 100n
export const DEFAULT_CATCH_UP_AFTER_MS = 500

/** `onBehind` for `followLedger`: called at every look at the ledger with the versions the index is behind. */
export const catchUpPriority = (options: CatchUpPriorityOptions): ((versionsBehind: bigint) => void) => {
  const catchUpBehind = options.catchUpBehind ?? DEFAULT_CATCH_UP_BEHIND
  const relaxBehind = options.relaxBehind ?? DEFAULT_RELAX_BEHIND
  const catchUpAfterMs = options.catchUpAfterMs ?? DEFAULT_CATCH_UP_AFTER_MS
  const now = options.now ?? (() => performance.now())
  let raised = false
  /** When the index was last within `relaxBehind` versions. */
  let closeAt = now()
  return (behind) => {
    if (behind <= relaxBehind) {
      closeAt = now()
      if (raised) raised = !options.setNice(options.nice)
    } else if (!raised && (behind > catchUpBehind || now() - closeAt > catchUpAfterMs)) raised = options.setNice(0)
  }
}
