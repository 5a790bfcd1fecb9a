/**
 * When the index gathers blocks before indexing them. Each batch is one store transaction, and
 * what a transaction costs beyond its rows is mostly pages: the same index pages (each account's
 * place in `account_transactions`, its events, its balance…) are written to SQLite's log again for
 * every commit, however few rows each gained. Under a flood the chain commits a full block every
 * ~100 ms and the index, keeping up, took them one at a time: a `COMMIT` of ~1,500 pages per block.
 *
 * So after a batch of a full block or more (the chain is busy), the index waits — at most
 * `GATHER_MAX_WAIT_MS` — until at least half a batch more than that is waiting (two blocks of that
 * size), and takes them together. Measured (docs/benchmarks.md, session 16, interleaved pairs): the
 * index's thread 8–16 % less CPU per transfer in every pair, transfers per second +4.7 % on average
 * over twelve pairs (the event loop, not the index, is what limits them).
 *
 * It never gathers while someone waits for the index: a GraphQL query waiting for its version
 * (read-after-write) or the chain's gate (`indexGate`) makes it index what there is at once. A
 * chain below a full block per batch (a test suite, 100 transfers/s) is indexed block by block as
 * before, so the index's lag there stays within a block.
 */

/** A batch of at least this many transactions means the chain is producing full blocks. */
export const GATHER_FROM_BATCH = 200

/** The longest the index waits for the next block after a full batch. */
export const GATHER_MAX_WAIT_MS = 150

/**
 * How many versions should be waiting before the next batch, after one of `lastBatch`
 * transactions (undefined: do not wait). Capped by the batch size the index takes at most.
 */
export const gatherTarget = (lastBatch: number, maxBatch: number): bigint | undefined =>
  lastBatch < GATHER_FROM_BATCH ? undefined : BigInt(Math.min(maxBatch, Math.ceil(lastBatch * 1.5)))
