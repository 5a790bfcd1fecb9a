import type { AccountAddress } from "../domain/AccountAddress.js"
import type { Accumulator } from "../domain/MerkleAccumulator.js"
import type { OutputEncoding } from "../domain/outputHashes.js"
import type { StateValueMetadata } from "../domain/WriteSet.js"
import type {
  BlockInfo,
  CommittedTransaction,
  StatePage,
  StatePageQuery,
  TransactionGasFacts,
  TransactionSummary,
  VersionedEvent
} from "./Ledger.js"

/**
 * What a ledger store remembers about itself: the latest block, the retained window and the chain
 * identity. Written atomically with every block, so it always describes a whole block.
 */
export interface LedgerHead {
  readonly chainId: number
  readonly latestVersion: bigint
  readonly latestHeight: bigint
  readonly epoch: bigint
  readonly timestampUsec: bigint
  /** First version of the oldest retained block (block aligned). */
  readonly oldestVersion: bigint
  readonly oldestHeight: bigint
  /** Hash of the transaction at version 0, the store's identity. */
  readonly genesisHash: Uint8Array
  /** The transaction accumulator after the latest version (frozen subtree roots; leaves = latest + 1). */
  readonly accumulator: Accumulator
}

/** A sequence-number transaction's place in its sender's order (the account-transactions index). */
export interface AccountSequence {
  readonly sender: AccountAddress
  readonly sequenceNumber: bigint
  readonly version: bigint
}

/** One block, fully prepared by the shared writer: versions, hashes and summaries assigned. */
export interface PreparedBlock {
  readonly block: BlockInfo
  readonly transactions: ReadonlyArray<CommittedTransaction>
  readonly summaries: ReadonlyArray<TransactionSummary>
  readonly accountSequences: ReadonlyArray<AccountSequence>
  /** The block's handle events, for the by-key event index. */
  readonly events: ReadonlyArray<VersionedEvent>
  /** The head after this block, including the (possibly advanced) pruning window. */
  readonly head: LedgerHead
  /**
   * By transaction (the same index), the BCS of its write set and events its hashes were computed
   * over (`OutputHashes.encoding`), when this movenode computed them: a store that writes them
   * copies them instead of encoding them again. Absent for blocks whose records are known.
   */
  readonly outputEncodings?: ReadonlyArray<OutputEncoding | undefined> | undefined
}

/**
 * The storage half of a ledger: synchronous, no validation. `makeLedgerService` does every
 * range/pruning check and the version assignment once, so the in-memory and LMDB stores cannot
 * disagree on semantics. Methods may throw (storage failure); the service maps throws to StorageError.
 */
export interface LedgerBackend {
  readonly head: () => LedgerHead | undefined
  /** Newest value of `keyBytes` written at or below `version`; `value` undefined = deleted. */
  readonly stateGet: (
    keyBytes: Uint8Array,
    version: bigint
  ) => { readonly value: Uint8Array | undefined; readonly version: bigint } | undefined
  /** The `version` of what `stateGet` answers, when it holds a value; optional (a cheaper read). */
  readonly stateVersion?: ((keyBytes: Uint8Array, version: bigint) => bigint | undefined) | undefined
  /**
   * The metadata (deposits, creation time) written with the value `stateGet` answers; undefined
   * when that value was written without any (a legacy slot), was deleted, or is absent.
   */
  readonly stateMetadata: (keyBytes: Uint8Array, version: bigint) => StateValueMetadata | undefined
  readonly transaction: (version: bigint) => CommittedTransaction | undefined
  /**
   * The transaction at `version` as the reference's `TransactionOnChainData` BCS, from the stored
   * bytes (no objects built, nothing encoded again). Optional: a store keeping decoded objects has
   * none (the API encodes them).
   */
  readonly transactionOnChainBcs?: ((version: bigint) => Uint8Array | undefined) | undefined
  /**
   * What gas estimation needs of the transaction at `version` (`TransactionGasFacts`), read from the
   * stored bytes without decoding its write set and events. Optional: a store keeping decoded
   * objects has none (the transaction is at hand).
   */
  readonly transactionGasFacts?: ((version: bigint) => TransactionGasFacts | undefined) | undefined
  readonly versionOfHash: (hash: Uint8Array) => bigint | undefined
  readonly block: (height: bigint) => BlockInfo | undefined
  /** The block whose range contains `version`. */
  readonly blockOfVersion: (version: bigint) => BlockInfo | undefined
  /** Ascending summaries of `sender` with `from ≤ version ≤ to`, at most `limit`, from `from` up. */
  readonly summariesForward: (
    sender: AccountAddress,
    from: bigint,
    to: bigint,
    limit: number
  ) => ReadonlyArray<TransactionSummary>
  /** Descending summaries of `sender` with `from ≤ version ≤ to`, at most `limit`, from `to` down. */
  readonly summariesBackward: (
    sender: AccountAddress,
    from: bigint,
    to: bigint,
    limit: number
  ) => ReadonlyArray<TransactionSummary>
  /** `sender`'s sequence-number transactions from `fromSequenceNumber` up, ascending, at most `limit`. */
  readonly accountSequences: (
    sender: AccountAddress,
    fromSequenceNumber: bigint,
    limit: number
  ) => ReadonlyArray<AccountSequence>
  /**
   * Events of the stream (address, creation number) with `from ≤ sequence number ≤ to`, at most
   * `limit`: ascending from `from`, or descending from `to` when `descending`.
   */
  readonly events: (
    address: AccountAddress,
    creationNumber: bigint,
    from: bigint,
    to: bigint,
    limit: number,
    descending: boolean
  ) => ReadonlyArray<VersionedEvent>
  /** A page of state at `version` (see `StatePageQuery`); the version is already checked. */
  readonly statePage: (version: bigint, query: StatePageQuery) => StatePage
  /**
   * Appends the block and its head in one atomic, durable step; in the same step deletes at most
   * `pruneBudget` entries below the head's window. A store that makes the step durable off the
   * event loop (LMDB: the fsync on lmdb's write thread) returns a Promise, resolved once the block
   * is durable and readable; until then reads (and `head`) answer as before the block. One commit
   * at a time: the caller waits for it before the next (makeLedgerService serialises them).
   */
  readonly commit: (prepared: PreparedBlock, pruneBudget: number) => void | Promise<void>
  /**
   * `commit` of several consecutive blocks (each prepared on the one before) in one atomic, durable
   * step: one write transaction, one fsync; the head moves to the last block's, or, on a failure,
   * stays where it was. Optional: without it, `makeLedgerService` commits them one at a time.
   */
  readonly commitMany?:
    | ((prepared: ReadonlyArray<PreparedBlock>, pruneBudget: number) => void | Promise<void>)
    | undefined
  /**
   * Deletes at most `budget` entries that lie below the head's oldest version/height.
   * Returns the number deleted (0 = nothing left to prune).
   */
  readonly pruneStep: (budget: number) => number
  /**
   * Makes the next reads see every block committed so far (by this or another thread). Optional:
   * a store whose reads always see the latest commit needs none.
   */
  readonly refreshReads?: (() => void) | undefined
  /**
   * Lets this thread's read snapshot go now; the next read takes a new one. For a reader about to
   * spend a while not reading (the indexer's worker storing a batch): a snapshot held meanwhile
   * keeps the writer from reusing the pages its commits free (`snapshotBound.ts`). Optional, as
   * `refreshReads`.
   */
  readonly releaseReads?: (() => void) | undefined
  /**
   * Forgets everything committed after `head.latestVersion` (transactions, hashes, blocks, events,
   * summaries, every index, state versions) and makes `head` the head again, in one atomic,
   * durable step (a crash leaves the store before or after it). `head` is one this store had
   * (a mark kept by the caller); its window is kept where it is now if pruning moved it since.
   * Optional: a store that cannot forget has none (the local chain's snapshot/revert need it).
   * `append`: blocks prepared on `head`, written in the same step (loading a dumped chain: the
   * store holds the old chain or the new one, never a mix). Counts as a truncation even when
   * nothing was above `head`. A store with nothing yet (a fork's own store before its first
   * block, whose `head` is the fork's base) writes `append` as its first blocks.
   */
  readonly truncateAfter?: ((head: LedgerHead, append?: ReadonlyArray<PreparedBlock>) => void) | undefined
  /**
   * A store whose `truncateAfter` leaves the forgotten versions' entries behind (unreadable: LMDB)
   * removes those of at most `budget` versions, in one atomic step; resolves to how many versions
   * it removed (0: nothing left). Optional: a store that forgets at once has none.
   */
  readonly collectGarbage?: ((budget: number) => number | Promise<number>) | undefined
  /**
   * The newest version at or below `version` whose write set wrote a module, or a version below
   * every recorded one when none did (`codeVersions.ts`): two versions of one history generation
   * (no truncation between them) with the same answer hold the same modules. Undefined when the
   * store cannot tell: `version` is older than its record (a store made before it kept one) or no
   * record covers it. Optional: a store without a record has none (every version is then its own).
   */
  readonly codeVersionAt?: ((version: bigint) => bigint | undefined) | undefined
  /**
   * How many times the store was truncated over its life (persisted): versions above a truncation
   * point are reused, so a cache keyed by version forgets what it holds when this changes.
   */
  readonly truncations?: (() => number) | undefined
  /**
   * Releases the store. A store whose commits finish on another thread (lmdb-js's write thread)
   * resolves once the commits in flight are done: only then may the same store be opened again in
   * this process (lmdb-js shares one environment per path, and an opening transaction would wait
   * for the write lock held for a commit whose callback waits for this thread).
   */
  readonly close: () => void | Promise<void>
}
