/**
 * The chain waits for its index (`chain/ProductionGate.ts`): before a block, when the index is more
 * than `LAG_MAX` versions behind the ledger, block production waits until it is within
 * `LAG_RESUME`, for at most `WAIT_MAX_MS`. So under a flood the chain runs at the pace its index
 * keeps, and a GraphQL query waiting for the version current when it arrived (read-after-write)
 * waits a bounded time (issue 19; session 10, docs/benchmarks.md: without the gate, once admission
 * had moved to a worker thread, the chain committed 1,535 versions/s and the index fell 9,324
 * versions behind in a minute, growing).
 *
 * Never held for an index that is not following: until the index has reached the ledger's head
 * once, and again after it went back (a restarted node indexing its history, a re-index after a
 * revert: they catch up without slowing the chain), nor while it is failing, and never longer than
 * `WAIT_MAX_MS` a block.
 */
import * as Effect from "effect/Effect"
import type { LedgerService } from "../../ledger/Ledger.js"
import type { IndexerService } from "./Indexer.js"

/**
 * Versions behind the ledger past which the next block waits for the index. Six full blocks: under
 * a flood the index gathers two blocks per batch (`gatherPolicy.ts`), so it is routinely two or
 * three blocks behind by design; the gate is for an index that is losing ground.
 */
export const LAG_MAX = 1_500n
/** Versions behind the ledger at which it goes on. */
export const LAG_RESUME = 750n
/** The longest one block waits. */
export const WAIT_MAX_MS = 1_000

export const indexGate = (indexer: IndexerService, ledger: LedgerService): Effect.Effect<void> => {
  let following = false
  let lastIndexed = -1n
  return Effect.gen(function* () {
    const health = yield* indexer.health
    if (health.indexedVersion < lastIndexed) following = false
    lastIndexed = health.indexedVersion
    if (health.state === "caught-up") following = true
    if (!following || health.state === "failing") return
    const head = yield* Effect.option(ledger.ledgerInfo)
    if (head._tag === "None" || head.value.ledgerVersion - health.indexedVersion <= LAG_MAX) return
    yield* indexer.waitFor(head.value.ledgerVersion - LAG_RESUME, WAIT_MAX_MS)
  })
}
