import type { ViewAnswer, ViewRequest } from "../Views.js"
import type { ViewError } from "./executeView.js"
import type { ViewFilter } from "./ViewFilter.js"

/** What a view worker is started with (`workerData`). */
export interface ViewWorkerData {
  /** The LMDB ledger's directory: the worker opens the same store and only reads it. */
  readonly path: string
  readonly gasBudget: bigint
  readonly deadlineMs: number | undefined
  readonly filter: ViewFilter | undefined
}

/** One view to run at `version`; `latest` is the newest version committed when it was sent. */
export interface ViewJob {
  readonly id: number
  readonly request: ViewRequest
  readonly version: bigint
  readonly latest: bigint
}

export type ViewJobResult =
  | { readonly id: number; readonly ok: true; readonly answer: ViewAnswer }
  | { readonly id: number; readonly ok: false; readonly error: ViewError }

/** Sent by a worker once its store is open; a failure to open is an `error` event instead. */
export const WORKER_READY = "ready"
/** Sent to a worker to close its store and exit. */
export const WORKER_CLOSE = "close"
