/**
 * The messages between the chain's thread (`IndexerThread`) and the indexer's worker thread
 * (`indexerWorker`). Small on purpose: the worker reads the committed blocks from the LMDB store
 * itself, so the chain's thread only says that there are new ones.
 */
import type { IndexerHealth } from "../engine/Indexer.js"
import type { IndexerStoreConfig } from "../store/IndexerStore.js"

/** The worker's `workerData`. */
export interface IndexerWorkerData {
  /** The LMDB ledger's directory (the store the chain's `Ledger` writes). */
  readonly ledgerPath: string
  readonly store: IndexerStoreConfig
  /** What besides the DDL makes a stored index current (`indexerSchemaExtra`). */
  readonly schemaExtra: string
  /** The pipeline's processor names (their `processor_status` rows start at −1 in a new index). */
  readonly processorNames?: ReadonlyArray<string> | undefined
  readonly maxBatchTransactions?: number | undefined
  /** The worker thread's nice value (Linux; 0 = the process's priority). */
  readonly nice?: number | undefined
  /**
   * What a worker before this one was told (a restarted worker; none for the first): the resets
   * (`Reset.asked`) it did, a reset asked and not yet done, and whether the chain took a snapshot.
   */
  readonly resetsAcknowledged?: number | undefined
  readonly pendingReset?: { readonly asked: number; readonly full: boolean } | undefined
  readonly keepUndo?: boolean | undefined
}

/** Chain thread → worker. */
export type ToIndexerWorker =
  /** Blocks were committed. */
  | { readonly _tag: "Wake" }
  /** A reader (or the chain's gate) waits for `version`: index what there is, without gathering blocks. */
  | { readonly _tag: "Hurry"; readonly version: bigint }
  /**
   * The ledger went back: go back with it (`full`: drop the index and re-index from version 0);
   * `asked` counts the resets and rewinds asked so far.
   */
  | { readonly _tag: "Reset"; readonly asked: number; readonly full: boolean }
  /** The chain took a snapshot: batches record their undo from now on. */
  | { readonly _tag: "KeepUndo" }
  /** Stop after the batch under way (its transaction commits or rolls back whole), close, answer `Closed`. */
  | { readonly _tag: "Close" }

/** Worker → chain thread. */
export type FromIndexerWorker =
  /** The store is open and its schema current (the chain's thread may open its read connection). */
  | { readonly _tag: "Ready" }
  /**
   * The health after a change; `resetsAcknowledged` is the latest `Reset.asked` a reset was done
   * after, so the chain's thread ignores reports that predate the reset it asked for.
   */
  | { readonly _tag: "Progress"; readonly health: IndexerHealth; readonly resetsAcknowledged: number }
  | { readonly _tag: "Log"; readonly level: string; readonly message: string }
  /** The worker could not start (its store or the ledger would not open). */
  | { readonly _tag: "Failed"; readonly message: string }
  | { readonly _tag: "Closed" }
