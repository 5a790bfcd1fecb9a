import * as Effect from "effect/Effect"
import { ApiErrors, type ApiError } from "../domain/ApiError.js"
import type { LedgerInfo } from "../domain/LedgerInfo.js"
import type { Ledger, StateReader } from "../ledger/Ledger.js"
import { apiErrorFromLedger } from "./apiErrorFromLedger.js"

/**
 * The `ledger_version` rules of the module, balance and view endpoints (contract "Everywhere",
 * aptos-api-behaviour.md §1.6): absent = latest; above latest = 404 `version_not_found`; below the
 * oldest retained version = 410 `version_pruned`; both errors carry the ledger info.
 */
export const checkLedgerVersion = (ledger: LedgerInfo, requested: bigint | undefined): bigint | ApiError => {
  if (requested === undefined) return ledger.ledgerVersion
  if (requested > ledger.ledgerVersion) return ApiErrors.versionNotFound(requested, ledger)
  if (requested < ledger.oldestLedgerVersion) return ApiErrors.versionPruned(requested, ledger)
  return requested
}

/** The latest ledger info, as an API error when the ledger cannot give it (no ledger headers then). */
export const readLedgerInfo = (ledgerService: Ledger["Service"]): Effect.Effect<LedgerInfo, ApiError> =>
  Effect.mapError(ledgerService.ledgerInfo, (e) =>
    apiErrorFromLedger(e, undefined, "Failed to read the latest ledger info")
  )

export interface StateAtVersion {
  readonly ledger: LedgerInfo
  readonly version: bigint
  readonly state: StateReader
}

/** Reads the ledger info, applies the `ledger_version` rules and opens the state at that version. */
export const stateAtLedgerVersion = (
  ledgerService: Ledger["Service"],
  requested: bigint | undefined
): Effect.Effect<StateAtVersion, ApiError> =>
  Effect.flatMap(readLedgerInfo(ledgerService), (ledger) => openState(ledgerService, ledger, requested))

/** Applies the `ledger_version` rules to `ledger` (the latest info) and opens the state at that version. */
const openState = (
  ledgerService: Ledger["Service"],
  ledger: LedgerInfo,
  requested: bigint | undefined
): Effect.Effect<StateAtVersion, ApiError> => {
  const version = checkLedgerVersion(ledger, requested)
  if (typeof version !== "bigint") return Effect.fail(version)
  return Effect.mapBoth(ledgerService.stateAt(version), {
    onFailure: (e) => apiErrorFromLedger(e, ledger, "Failed to read state"),
    onSuccess: (state) => ({ ledger, version, state })
  })
}

/**
 * `stateAtLedgerVersion` for one service's hot path: the last answer is kept and reused while the
 * ledger info is the same object (the ledger builds one per head, so the same info means no commit
 * and no pruning since) and the requested version the same, skipping the state open. A state at a
 * version is immutable, so the reused reader reads what a fresh one would.
 */
export const cachedStateAtLedgerVersion = (ledgerService: Ledger["Service"]) => {
  let last: StateAtVersion | undefined
  let lastRequested: bigint | undefined
  let lastEffect: Effect.Effect<StateAtVersion> | undefined
  return (requested: bigint | undefined): Effect.Effect<StateAtVersion, ApiError> =>
    Effect.flatMap(readLedgerInfo(ledgerService), (ledger) => {
      if (last !== undefined && last.ledger === ledger && lastRequested === requested) return lastEffect!
      return Effect.map(openState(ledgerService, ledger, requested), (opened) => {
        last = opened
        lastRequested = requested
        lastEffect = Effect.succeed(opened)
        return opened
      })
    })
}
