/** Messages between the GraphQL reads' worker (`indexReadsWorker.ts`) and `WorkerIndexReads.ts`. */
import type { IndexerStoreConfig } from "../store/IndexerStore.js"

export interface IndexReadsWorkerData {
  /** The index's store (SQLite with a file: another thread's connection sees what the writer commits). */
  readonly store: IndexerStoreConfig
}

export type ToIndexReadsWorker =
  | { readonly _tag: "Select"; readonly id: number; readonly sql: string; readonly params: ReadonlyArray<unknown> }
  | { readonly _tag: "Close" }

export type FromIndexReadsWorker =
  /** The store is open (or could not be: `error`). */
  | { readonly _tag: "Open"; readonly error?: string | undefined }
  | { readonly _tag: "Rows"; readonly id: number; readonly rows: ReadonlyArray<Record<string, unknown>> }
  | { readonly _tag: "Failed"; readonly id: number; readonly message: string }
