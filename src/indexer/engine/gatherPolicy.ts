/**
 * When the index gathers blocks before indexing them. Each batch is one store transaction, and
 * what a transaction costs beyond its rows is mostly pages: the same index pages (each account's
 * place in `account_transactions`, its events, its balance…) are written to SQLite's log again for
 * every commit, however few rows each gained.
 *
 * - **Under a flood** the chain commits a full block every ~100 ms and the index, keeping up, took
 *   them one at a time: a `COMMIT` of ~1,500 pages per block. So after a batch of a full block or
 *   more, the index waits — at most `GATHER_MAX_WAIT_MS` — until at least half a batch more than that
 *   is waiting (two blocks of that size), and takes them together. Measured (docs/benchmarks.md,
 *   session 16, interleaved pairs): the index's thread 8–16 % less CPU per transfer in every pair,
 *   transfers per second +4.7 % on average over twelve pairs.
 * - **Below full blocks** (a test suite, 100 transfers/s: every transaction its own block of three
 *   versions) the index took each block as it came, a store transaction per block: at 100 blocks/s
 *   its thread used 0.38 of a core, more than half of it committing. So after a smaller batch it
 *   waits at most `TRICKLE_GATHER_MS` for whatever else arrives (up to a whole batch), and takes it
 *   together: at 100/s the index's thread 0.17 of a core, the node 0.99 cores instead of 1.36, and
 *   the chain's submit → committed latency p50 10–12 ms instead of 16–19 (three pairs, session 21).
 *   A block after a quiet spell is still indexed at once; only what follows it within the bound is
 *   gathered. The bound was 40 ms until session 39, which found the index's commits still most of
 *   its cost between those rates and a flood: at 500 transfers/s (blocks of a few transfers) a batch
 *   every 40 ms left the index's thread 0.40–0.41 ms a transfer and the node 1.86–1.89; within
 *   150 ms, as under a flood, 0.28–0.31 and 1.54–1.67 (two interleaved pairs), the node's cores at
 *   100/s 0.51–0.65 against 0.63–0.65 and the chain's p99 latency there the same (13.6–18.2 ms
 *   against 14.3–22.2, three pairs; docs/benchmarks.md, "Session 39").
 *
 * It never gathers while someone waits for the index: a GraphQL query waiting for its version
 * (every query waits for the ledger's head: read-after-write, so an SDK's `waitForIndexer` sees no
 * gathering) or the chain's gate (`indexGate`) makes it index what there is at once.
 */

/** A batch of at least this many transactions means the chain is producing full blocks. */
export const GATHER_FROM_BATCH = 200

/** The longest the index waits for the next block after a full batch. */
export const GATHER_MAX_WAIT_MS = 150

/** The longest the index waits for more blocks after a batch below a full block. */
export const TRICKLE_GATHER_MS = 150

/** What to wait for after a batch: until `versions` are waiting, at most `maxWaitMs`. */
export interface GatherPlan {
  readonly versions: bigint
  readonly maxWaitMs: number
}

/**
 * The wait after a batch of `lastBatch` transactions, the index taking at most `maxBatch` at a time
 * (`floodWaitMs` and `trickleWaitMs` default to the bounds above; tests change them). Undefined: do
 * not wait (an empty batch, or a wait of 0 ms).
 */
export const gatherPlan = (
  lastBatch: number,
  maxBatch: number,
  floodWaitMs: number = GATHER_MAX_WAIT_MS,
  trickleWaitMs: number = TRICKLE_GATHER_MS
): GatherPlan | undefined => {
  if (lastBatch <= 0) return undefined
  const flood = lastBatch >= GATHER_FROM_BATCH
  const maxWaitMs = flood ? floodWaitMs : trickleWaitMs
  if (!(maxWaitMs > 0)) return undefined
  return { versions: BigInt(flood ? Math.min(maxBatch, Math.ceil(lastBatch * 1.5)) : maxBatch), maxWaitMs }
}
