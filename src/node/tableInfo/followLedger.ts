/**
 * Keeps a `TableInfoIndex` up to the ledger: before a transaction at version v is rendered, the
 * write sets through v are learned (catching up from where it stopped, in batches, one catch-up at
 * a time). A node started on an existing data directory learns its history on the first read that
 * needs it (the index is memory only: rebuilding it is a read of the committed write sets).
 *
 * It never fails and never holds an answer for long:
 * - history the ledger cannot give (below the prune window, or a range it fails to read) is passed
 *   over: tables created there stay unknown and their items show `data: null`, as on a node whose
 *   table-info indexer started late;
 * - with a `budget`, a catch-up stops waiting when the budget is spent (the learning goes on at the
 *   next call, from where it stopped): a ledger whose old history is slow to read (a fork reads it
 *   from its source) delays no answer by more than the budget. `learnedThrough` says how far the
 *   index got, so a caller can tell an answer rendered with every table known from one that is not.
 * - a fork learns from its own write sets only (`LedgerService.firstOwnVersion`): its source's
 *   history is not walked, and answers for versions before its own are not held at all.
 */
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Semaphore from "effect/Semaphore"
import type { LedgerService, StateReader } from "../../ledger/Ledger.js"
import type { ModuleSource } from "../../move/layout/ModuleSource.js"
import { TableInfoIndex, type TableTypes } from "./TableInfoIndex.js"

/** Transactions read per ledger call while catching up. */
const BATCH = 500

export interface TableInfoFollower {
  /** The tables' types as known once the index has learned through `version` (or the budget ran out). */
  readonly through: (version: bigint) => Effect.Effect<TableTypes>
  /** The last version whose write set the index has learned (or passed over), −1 before any. */
  readonly learnedThrough: () => bigint
  /**
   * Learns the transaction at `version` with `learn` (which hands the index what a caller already
   * read and decoded) when it is the next one to learn, and answers true; otherwise does nothing
   * and answers false (an earlier one is missing: `through` reads it; or it was learned before).
   * The indexer reads every transaction for its processors: learning from that reading spares
   * reading and decoding each version a second time (~8 % of its thread).
   */
  readonly learnNext: (version: bigint, learn: (index: TableInfoIndex) => void) => boolean
  readonly index: TableInfoIndex
}

export const followLedger = (
  ledger: LedgerService,
  modulesAt: (state: StateReader) => ModuleSource,
  options: { readonly firstVersion?: bigint; readonly budget?: Duration.Input } = {}
): TableInfoFollower => {
  const index = new TableInfoIndex()
  /** The first version not yet learned. */
  let next = options.firstVersion ?? 0n
  const permit = Semaphore.makeUnsafe(1)

  // After the ledger went back (a local chain's revert), versions above the point it went back to
  // hold other write sets: learn them again from there (what was learned of dropped tables stays,
  // unused: a handle is never reused by another table), with layouts resolved again (a module
  // published again there may give a struct another layout).
  let rewinds = ledger.rewind?.rewinds() ?? 0
  const followRewinds = () => {
    const r = ledger.rewind
    if (r === undefined || r.rewinds() === rewinds) return
    const to = r.rewoundTo(rewinds)
    rewinds = r.rewinds()
    index.forgetLayouts()
    if (to !== undefined && next > to + 1n) next = to + 1n
  }

  /** A fork's history before its own versions is never learned: `next` starts at its first own version. */
  const skipForkedHistory = () => {
    if (ledger.firstOwnVersion !== undefined && next < ledger.firstOwnVersion) next = ledger.firstOwnVersion
  }

  /** Learns one batch from `next` on (at most through `version`); false when there is nothing to read. */
  const step = (version: bigint): Effect.Effect<void> =>
    Effect.gen(function* () {
      const info = yield* ledger.ledgerInfo
      if (next < info.oldestLedgerVersion) next = info.oldestLedgerVersion
      skipForkedHistory()
      if (next > version) return
      // Struct layouts do not change across upgrades, so the modules at the target version serve
      // every write set before it (and know the modules those write sets published).
      const modules = modulesAt(yield* ledger.stateAt(version))
      const count = version - next + 1n < BigInt(BATCH) ? Number(version - next + 1n) : BATCH
      const batch = yield* ledger.transactionsFrom(next, count)
      if (batch.length === 0) {
        next = version + 1n
        return
      }
      for (const t of batch) {
        if (t.version > version) break
        // Learned meanwhile from a caller's reading (`learnNext`): not again, and `next` not back.
        if (t.version < next) continue
        index.learn(modules, t.writeSet)
        next = t.version + 1n
      }
    }).pipe(
      // History the ledger cannot give is passed over (its tables stay unknown).
      Effect.catch(() =>
        Effect.sync(() => {
          next = version + 1n
        })
      )
    )

  const catchUp = (version: bigint): Effect.Effect<void> =>
    Effect.whileLoop({ while: () => next <= version, body: () => step(version), step: () => {} })

  const through = (version: bigint): Effect.Effect<TableTypes> => {
    followRewinds()
    if (next > version || (ledger.firstOwnVersion !== undefined && version < ledger.firstOwnVersion))
      return Effect.succeed(index.lookup)
    const learn = Semaphore.withPermit(permit)(Effect.suspend(() => catchUp(version)))
    return Effect.as(options.budget === undefined ? learn : Effect.timeoutOption(learn, options.budget), index.lookup)
  }

  const learnNext = (version: bigint, learn: (index: TableInfoIndex) => void): boolean => {
    followRewinds()
    skipForkedHistory()
    if (version !== next) return false
    learn(index)
    next = version + 1n
    return true
  }

  return { through, learnedThrough: () => next - 1n, learnNext, index }
}
