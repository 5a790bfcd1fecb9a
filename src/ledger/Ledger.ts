import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { AccountAddress } from "../domain/AccountAddress.js"
import type { ContractEvent } from "../domain/ContractEvent.js"
import type { ExecutionStatus } from "../domain/ExecutionStatus.js"
import type { LedgerInfo } from "../domain/LedgerInfo.js"
import type { OutputHashes } from "../domain/outputHashes.js"
import type { ReplayProtector, Transaction } from "../domain/Transaction.js"
import type { TransactionInfo } from "../domain/TransactionInfo.js"
import type { StateValueMetadata, WriteSet } from "../domain/WriteSet.js"
import type { LedgerError } from "./LedgerError.js"
import type { KnownRecord } from "./knownRecords.js"
import type { CommittedBlockInput } from "./prepareBlock.js"

/**
 * A synchronous view of global state at one version: the newest value of each key written at or
 * below `version`. Synchronous on purpose: the Move VM reads through it in its inner loop.
 * `keyBytes` is BCS(StateKey).
 */
export interface StateReader {
  readonly version: bigint
  /**
   * Names this snapshot when the version alone does not: after the ledger was rewound
   * (`LedgerRewind`) a version is reused by different state, so VM caches keyed by snapshot use
   * this (`rewinds/version`) instead. Undefined on a ledger never rewound.
   */
  readonly snapshotId?: string | undefined
  /**
   * Names the modules this reader sees, when the store can tell (`LedgerBackend.codeVersionAt`):
   * readers with equal names read the same modules at the same versions, whatever their versions
   * (caches of loaded or decoded modules need not look again). Undefined: no such promise.
   */
  readonly codeSnapshotId?: string | undefined
  /**
   * How many rewinds the ledger had when this reader was made: a version names one state only
   * among readers of one generation (a module's version and length do not tell a module
   * published again after a rewind from the one it replaced). Undefined: not tracked.
   */
  readonly generation?: number | undefined
  readonly get: (keyBytes: Uint8Array) => Uint8Array | undefined
  /** The value and the version that wrote it (for caches keyed by the stored value's version). */
  readonly getVersioned: (keyBytes: Uint8Array) => { readonly value: Uint8Array; readonly version: bigint } | undefined
  /**
   * Only the version that wrote the live value (undefined = absent or deleted), without copying the
   * value out: what a cache keyed by that version needs before it knows it must read the bytes.
   * Optional so test doubles need not provide it; callers fall back to `getVersioned`.
   */
  readonly versionOf?: ((keyBytes: Uint8Array) => bigint | undefined) | undefined
  /**
   * The metadata (storage deposits, creation time) written with the live value; undefined when it
   * was written without any (a legacy slot) or there is none. Optional so test doubles need not
   * provide it (their slots then all look legacy).
   */
  readonly metadata?: ((keyBytes: Uint8Array) => StateValueMetadata | undefined) | undefined
}

/**
 * How a transaction ended, as the executor reports it for a kept transaction. `status` is what the
 * transaction info records and hashes (`success` in the API is `status._tag === "Success"`);
 * `vmStatus` is the API's explanation of it ("Executed successfully", "Move abort in 0x1::coin:
 * EINSUFFICIENT_BALANCE(0x10006): …"), written by the executor, which knows the status code names.
 */
export interface TransactionOutcome {
  readonly gasUsed: bigint
  readonly status: ExecutionStatus
  readonly vmStatus: string
}

export interface TransactionToCommit {
  readonly transaction: Transaction
  readonly writeSet: WriteSet
  readonly events: ReadonlyArray<ContractEvent>
  readonly outcome: TransactionOutcome
  /**
   * The transaction info and the accumulator root after it as a source committed them (a follower
   * replaying another node's blocks, src/follow): stored as given instead of computed, the
   * accumulator continued from the info's hash. The caller has checked both against the
   * transaction, its write set and events and the accumulator it continues
   * (src/follow/checkTransaction.ts); a source's info may carry hashes movenode does not compute
   * (state checkpoint, auxiliary info), which is why it is kept rather than recomputed.
   */
  readonly source?:
    | {
        readonly info: TransactionInfo
        readonly accumulatorRootHash: Uint8Array
        /** The info's hash (its accumulator leaf), when the caller has it (hashed from the bytes received). */
        readonly infoHash?: Uint8Array | undefined
        /**
         * The transaction's LMDB record built from the bytes received (`transactionRecordOfParts`),
         * for the block height and timestamp it was built with: the store writes it as it is
         * instead of encoding the transaction again, when the block lands at that height.
         */
        readonly record?:
          | { readonly height: bigint; readonly timestampUsec: bigint; readonly record: KnownRecord }
          | undefined
      }
    | undefined
  /**
   * The transaction's hash when the caller has it already (the mempool computed it from the
   * submitted bytes at admission): taken as is instead of encoding the transaction again to hash it.
   */
  readonly hash?: Uint8Array | undefined
  /**
   * The hashes of its output (`outputHashes` of its write set and events) when the caller has them
   * already: the block producer hashes each transaction's output right after executing it, in its
   * turn-budgeted slices, so that the commit does not hash a whole block's outputs in one turn
   * (issue 22: 5.7 of `prepareBlock`'s 9.4 ms for a block of 250 transfers on a 2-core machine).
   * Taken as given, with the encodings they were computed over, which the ledger's record stores.
   */
  readonly outputHashes?: OutputHashes | undefined
}

/**
 * A transaction as the ledger holds it: what was committed, where (version, block height, the
 * block's timestamp), its transaction info (computed once at commit) and the transaction
 * accumulator's root after it.
 */
export interface CommittedTransaction extends TransactionToCommit {
  readonly version: bigint
  readonly hash: Uint8Array
  readonly blockHeight: bigint
  /** The timestamp of the block holding it, µs (0 for genesis). */
  readonly timestampUsec: bigint
  readonly info: TransactionInfo
  readonly accumulatorRootHash: Uint8Array
  /**
   * The transaction's JSON as another node rendered it (a fork's history at or below its version,
   * src/fork/ForkHistory.ts): served as is, so it reads exactly as there. Absent for the ledger's own.
   */
  readonly sourceJson?: string | undefined
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

/**
 * Of one transaction, what the gas estimate reads (`node/blockMinInclusionPrice.ts`): a user
 * transaction's `gas_unit_price`, and whether a block epilogue reports a block limit reached
 * (undefined for every other kind, and for an epilogue without the report).
 */
export interface TransactionGasFacts {
  readonly userGasUnitPrice: bigint | undefined
  readonly blockLimitReached: boolean | undefined
}

export interface SummaryQuery {
  readonly startVersion?: bigint | undefined
  readonly endVersion?: bigint | undefined
  readonly limit: number
}

/** A handle event (`ContractEvent::V1`) with the version of the transaction that emitted it. */
export interface VersionedEvent {
  readonly version: bigint
  readonly event: Extract<ContractEvent, { readonly _tag: "V1" }>
}

/**
 * Events of one stream (an `EventKey`: creation number and account address), by sequence number:
 * from `start` upwards, or the newest `limit` when `start` is undefined; always ascending.
 */
export interface EventQuery {
  readonly address: AccountAddress
  readonly creationNumber: bigint
  readonly start?: bigint | undefined
  readonly limit: number
}

/** A state key, its value at the version read, and the version that wrote that value. */
export interface StateEntry {
  readonly keyBytes: Uint8Array
  readonly value: Uint8Array
  readonly version: bigint
}

/**
 * A page of an account's access-path state keys (modules, resources, resource groups: the
 * BCS(StateKey) bytes that start with 0x00 ‖ address), in byte order (the reference's cursor order),
 * each with its value at the version read (keys without a value there are skipped).
 * `start` is the first key to consider (inclusive); `accept` filters keys (resources or modules);
 * `limit` bounds the accepted entries and `maxScan` the keys looked at, accepted or not.
 */
export interface StatePageQuery {
  readonly address: AccountAddress
  readonly start?: Uint8Array | undefined
  readonly accept: (keyBytes: Uint8Array) => boolean
  readonly limit: number
  readonly maxScan: number
}

export interface StatePage {
  readonly entries: ReadonlyArray<StateEntry>
  /** Where the next page starts (a key to pass as `start`); undefined when the listing is complete. */
  readonly next: Uint8Array | undefined
}

/**
 * Going back (the local chain's snapshot/revert/reset): `mark` is the ledger's head now, `rewindTo`
 * forgets everything committed after a mark in one atomic, durable step (reads then answer as
 * they did when it was taken; the versions above it are reused by later blocks). Only ledgers
 * whose store can forget have it (`LedgerService.rewind`).
 */
export interface LedgerRewind {
  readonly mark: Effect.Effect<LedgerMark, LedgerError>
  /**
   * The mark of the ledger as it stood after block `height` (the transaction accumulator rebuilt
   * from version 0: proportional to the versions kept; height 0 = genesis, what `reset` uses).
   * VersionPruned when versions below it were pruned.
   */
  readonly markAtHeight: (height: bigint) => Effect.Effect<LedgerMark, LedgerError>
  /**
   * Forgets every version above the mark's. VersionNotFound when the mark is above the latest
   * version; VersionPruned when the window moved past it; StorageError for a mark of another history.
   */
  readonly rewindTo: (mark: LedgerMark) => Effect.Effect<void, LedgerError>
  /**
   * `rewindTo(mark)` and then `blocks` committed, as one atomic, durable step: the ledger holds
   * what it held or the new chain, never a part of it (loading a dumped chain).
   */
  readonly replaceAfter: (
    mark: LedgerMark,
    blocks: ReadonlyArray<BlockToCommit | CommittedBlockInput>
  ) => Effect.Effect<void, LedgerError>
  /**
   * How many rewinds the store has seen over its life: versions above a rewind point are reused
   * by later blocks, so a cache keyed by version forgets what it holds when this changes.
   */
  readonly rewinds: () => number
  /**
   * The lowest version the rewinds after the `since`-th (a value of `rewinds()`) went back to:
   * what a follower that had read up to some version must read again from `version + 1`.
   * Undefined when there was none since. Known for rewinds made by this process (a follower in
   * another process reads from 0 again).
   */
  readonly rewoundTo: (since: number) => bigint | undefined
  /**
   * A rewind returns once the head moved back; what the forgotten versions held is removed
   * afterwards, in slices between commits (a store that forgets at once has nothing to do). This
   * removes at most `budget` versions' worth now and tells how many (0: nothing left). Reads never
   * see it either way: for tests and benchmarks.
   */
  readonly collectGarbage: (budget: number) => Effect.Effect<number, LedgerError>
}

/** Where the ledger stood (its head when the mark was taken): a value to hand back to `rewindTo`. */
export interface LedgerMark {
  readonly version: bigint
  readonly height: bigint
  readonly timestampUsec: bigint
  readonly epoch: bigint
  /** The store's own record of the head (opaque to callers). */
  readonly head: unknown
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
  /**
   * Committed transactions from version `start` on, at most `limit`, stopping at the latest.
   * VersionNotFound above the latest, VersionPruned below the window.
   */
  readonly transactionsFrom: (
    start: bigint,
    limit: number
  ) => Effect.Effect<ReadonlyArray<CommittedTransaction>, LedgerError>
  /**
   * `transactionsFrom`, each transaction as the reference's `TransactionOnChainData` BCS copied
   * from the store's bytes (the block feed followers read). Undefined when the store keeps objects
   * (the API encodes them then), and on a ledger whose history is partly elsewhere (a fork).
   */
  readonly transactionsBcsFrom?:
    | ((start: bigint, limit: number) => Effect.Effect<ReadonlyArray<Uint8Array>, LedgerError>)
    | undefined
  /**
   * The gas facts (`TransactionGasFacts`) of the versions `first` to `last`, read from the store's
   * bytes without decoding the transactions' write sets and events (the gas estimate reads every
   * transaction of each recent block). Undefined when the store keeps objects (read the
   * transactions then), and on a ledger whose history is partly elsewhere (a fork).
   */
  readonly transactionsGasFacts?:
    | ((first: bigint, last: bigint) => Effect.Effect<ReadonlyArray<TransactionGasFacts>, LedgerError>)
    | undefined
  /**
   * `sender`'s committed sequence-number transactions with sequence numbers from `startSequenceNumber`
   * up, ascending, at most `limit` (orderless transactions have no sequence number and are not listed).
   */
  readonly accountTransactions: (
    sender: AccountAddress,
    startSequenceNumber: bigint,
    limit: number
  ) => Effect.Effect<ReadonlyArray<CommittedTransaction>, LedgerError>
  /** A page of state keys and values at `version` (see `StatePageQuery`). */
  readonly statePage: (version: bigint, query: StatePageQuery) => Effect.Effect<StatePage, LedgerError>
  /** One event stream's committed events (see `EventQuery`), from the index written at commit. */
  readonly eventsByKey: (query: EventQuery) => Effect.Effect<ReadonlyArray<VersionedEvent>, LedgerError>
  readonly blockByHeight: (height: bigint) => Effect.Effect<BlockInfo, LedgerError>
  readonly blockByVersion: (version: bigint) => Effect.Effect<BlockInfo, LedgerError>
  /** Appends one block atomically: all of it is visible afterwards, or none of it. */
  readonly commitBlock: (block: BlockToCommit) => Effect.Effect<BlockInfo, LedgerError>
  /**
   * A fork's ledger (src/fork): the first version that is its own; everything below is its source's
   * history, answered from there. Indexes built from the ledger's write sets (table info) start
   * here rather than walking the source's history. Undefined for a ledger of its own.
   */
  readonly firstOwnVersion?: bigint | undefined
  /** Going back to an earlier version (see `LedgerRewind`); undefined when the store cannot forget. */
  readonly rewind?: LedgerRewind | undefined
}

export class Ledger extends Context.Service<Ledger, LedgerService>()("movenode/ledger/Ledger") {}
