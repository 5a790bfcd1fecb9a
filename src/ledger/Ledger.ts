import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { AccountAddress } from "../domain/AccountAddress.js"
import type { ContractEvent } from "../domain/ContractEvent.js"
import type { LedgerInfo } from "../domain/LedgerInfo.js"
import type { ReplayProtector, Transaction } from "../domain/Transaction.js"
import type { WriteSet } from "../domain/WriteSet.js"
import type { LedgerError } from "./LedgerError.js"

/**
 * A synchronous view of global state at one version: the newest value of each key written at or
 * below `version`. Synchronous on purpose: the Move VM reads through it in its inner loop.
 * `keyBytes` is BCS(StateKey).
 */
export interface StateReader {
  readonly version: bigint
  readonly get: (keyBytes: Uint8Array) => Uint8Array | undefined
  /** The value and the version that wrote it (for caches keyed by the stored value's version). */
  readonly getVersioned: (keyBytes: Uint8Array) => { readonly value: Uint8Array; readonly version: bigint } | undefined
  /**
   * Only the version that wrote the live value (undefined = absent or deleted), without copying the
   * value out: what a cache keyed by that version needs before it knows it must read the bytes.
   * Optional so test doubles need not provide it; callers fall back to `getVersioned`.
   */
  readonly versionOf?: ((keyBytes: Uint8Array) => bigint | undefined) | undefined
}

/** What the VM and services need of a committed transaction besides its body. */
export interface TransactionOutcome {
  readonly gasUsed: bigint
  readonly success: boolean
  /** "Executed successfully", "Move abort …", as the reference's `vm_status` string. */
  readonly vmStatus: string
}

export interface TransactionToCommit {
  readonly transaction: Transaction
  readonly writeSet: WriteSet
  readonly events: ReadonlyArray<ContractEvent>
  readonly outcome: TransactionOutcome
}

export interface CommittedTransaction extends TransactionToCommit {
  readonly version: bigint
  readonly hash: Uint8Array
  readonly blockHeight: bigint
}

/** A block to append: the ledger assigns its height and the versions of its transactions. */
export interface BlockToCommit {
  readonly epoch: bigint
  readonly timestampUsec: bigint
  readonly transactions: ReadonlyArray<TransactionToCommit>
}

export interface BlockInfo {
  readonly height: bigint
  readonly firstVersion: bigint
  /** Inclusive. */
  readonly lastVersion: bigint
  readonly timestampUsec: bigint
  readonly epoch: bigint
}

export interface TransactionSummary {
  readonly sender: AccountAddress
  readonly version: bigint
  readonly hash: Uint8Array
  readonly replayProtector: ReplayProtector
}

export interface SummaryQuery {
  readonly startVersion?: bigint | undefined
  readonly endVersion?: bigint | undefined
  readonly limit: number
}

export interface LedgerService {
  /** The latest ledger info (chain id, versions, epoch, block heights, timestamp). */
  readonly ledgerInfo: Effect.Effect<LedgerInfo, LedgerError>
  /** State at `version`; VersionNotFound above the latest, VersionPruned below the window. */
  readonly stateAt: (version: bigint) => Effect.Effect<StateReader, LedgerError>
  readonly transactionByVersion: (version: bigint) => Effect.Effect<CommittedTransaction, LedgerError>
  readonly transactionByHash: (hash: Uint8Array) => Effect.Effect<CommittedTransaction, LedgerError>
  /** User transactions sent by `sender`, ascending by version, per the contract's paging rules. */
  readonly summariesBySender: (
    sender: AccountAddress,
    query: SummaryQuery
  ) => Effect.Effect<ReadonlyArray<TransactionSummary>, LedgerError>
  readonly blockByHeight: (height: bigint) => Effect.Effect<BlockInfo, LedgerError>
  readonly blockByVersion: (version: bigint) => Effect.Effect<BlockInfo, LedgerError>
  /** Appends one block atomically: all of it is visible afterwards, or none of it. */
  readonly commitBlock: (block: BlockToCommit) => Effect.Effect<BlockInfo, LedgerError>
}

export class Ledger extends Context.Service<Ledger, LedgerService>()("movenode/ledger/Ledger") {}
