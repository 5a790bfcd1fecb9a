/**
 * Keeps a `TableInfoIndex` up to the ledger: before a transaction at version v is rendered, every
 * write set through v has been learned (catching up from where it stopped, in batches, one
 * catch-up at a time). A node started on an existing data directory learns its history on the first
 * read that needs it (the index is memory only: rebuilding it is a read of the committed write sets).
 * Versions below the prune window are gone: tables created there stay unknown and their items are
 * rendered with `data: null`, as a node whose table-info indexer started late.
 */
import * as Effect from "effect/Effect"
import * as Semaphore from "effect/Semaphore"
import type { LedgerError } from "../../ledger/LedgerError.js"
import type { LedgerService, StateReader } from "../../ledger/Ledger.js"
import type { ModuleSource } from "../../move/layout/ModuleSource.js"
import { TableInfoIndex, type TableTypes } from "./TableInfoIndex.js"

/** Transactions read per ledger call while catching up. */
const BATCH = 500

export interface TableInfoFollower {
  /** The tables' types as known through `version` (the index learns up to it first). */
  readonly through: (version: bigint) => Effect.Effect<TableTypes, LedgerError>
  readonly index: TableInfoIndex
}

export const followLedger = (
  ledger: LedgerService,
  modulesAt: (state: StateReader) => ModuleSource
): TableInfoFollower => {
  const index = new TableInfoIndex()
  /** The first version not yet learned. */
  let next = 0n
  const permit = Semaphore.makeUnsafe(1)

  const catchUp = (version: bigint): Effect.Effect<void, LedgerError> =>
    Effect.gen(function* () {
      while (next <= version) {
        const info = yield* ledger.ledgerInfo
        if (next < info.oldestLedgerVersion) next = info.oldestLedgerVersion
        // A fork learns from its own write sets only (its source's history is not walked).
        if (ledger.firstOwnVersion !== undefined && next < ledger.firstOwnVersion) next = ledger.firstOwnVersion
        // Struct layouts do not change across upgrades, so the modules at the target version serve
        // every write set before it (and know the modules those write sets published).
        const modules = modulesAt(yield* ledger.stateAt(version))
        const batch = yield* ledger.transactionsFrom(
          next,
          Number(version - next + 1n < BATCH ? version - next + 1n : BATCH)
        )
        if (batch.length === 0) return
        for (const t of batch) {
          if (t.version > version) break
          index.learn(modules, t.writeSet)
          next = t.version + 1n
        }
      }
    })

  const through = (version: bigint): Effect.Effect<TableTypes, LedgerError> =>
    next > version || (ledger.firstOwnVersion !== undefined && version < ledger.firstOwnVersion)
      ? Effect.succeed(index.lookup)
      : Effect.as(Semaphore.withPermit(permit)(Effect.suspend(() => catchUp(version))), index.lookup)

  return { through, index }
}
