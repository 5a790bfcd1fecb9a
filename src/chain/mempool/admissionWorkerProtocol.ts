/**
 * Messages between the chain's thread and its admission worker (`admissionWorker.ts`). Kept small
 * and flat on purpose: a batch is every submission one event-loop turn handed over, as one buffer
 * of their BCS bytes (copied, not transferred: `AdmissionThread.flush` says why) and their
 * offsets; the answer is two typed arrays.
 */

/** What the worker is started with (`workerData`). */
export interface AdmissionWorkerData {
  /** The LMDB ledger's directory: the worker opens the same store and only reads it. */
  readonly path: string
}

/** Submissions to validate on the state at `version` (the chain's latest when the batch was sent). */
export interface AdmissionBatch {
  readonly id: number
  readonly version: bigint
  /** The signed transactions' BCS, back to back. */
  readonly bytes: Uint8Array
  /** Where each ends in `bytes` (the first starts at 0). */
  readonly ends: Uint32Array
}

/**
 * The verdicts, in the batch's order: `status[i]` is `VALID` for a valid transaction, `UNDECIDED`
 * when the worker could not decide (the chain's thread validates it itself), else the VM status
 * code it was refused with (`StatusCode`); `verified[i]` is 1 when its Ed25519 signature
 * verified (so the chain's thread need not verify it again when its block executes).
 */
export interface AdmissionVerdicts {
  readonly id: number
  readonly status: Int32Array
  readonly verified: Uint8Array
}

/** Sent by the worker once its store is open; a failure to open is an `error` event instead. */
export const ADMISSION_WORKER_READY = "ready"
/** Sent to the worker to close its store and exit. */
export const ADMISSION_WORKER_CLOSE = "close"

/** The status of a valid transaction in `AdmissionVerdicts.status`. */
export const VALID = -1
/** A transaction the worker could not decide (its validation threw): the chain's thread validates it. */
export const UNDECIDED = -2
