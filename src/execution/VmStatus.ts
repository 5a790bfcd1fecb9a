/**
 * The reference's `VMStatus`: how a transaction's run ended, before it is classified as kept or
 * discarded (`TransactionStatus.fromVmStatus`). `message` is the detail the simulate endpoint
 * appends ("Execution failed with message: …"); it is never part of the ledger.
 */
import type { ModuleId } from "../domain/TypeTag.js"
import type { StatusName } from "../move/vm/StatusCode.js"

export interface AbortInfo {
  readonly reasonName: string
  readonly description: string
}

export type VmStatus =
  | { readonly _tag: "Executed" }
  | { readonly _tag: "Error"; readonly status: StatusName; readonly message: string | undefined }
  | {
      readonly _tag: "MoveAbort"
      /** undefined = a script. */
      readonly location: ModuleId | undefined
      readonly code: bigint
      readonly info: AbortInfo | undefined
      readonly message: string | undefined
    }
  | {
      readonly _tag: "ExecutionFailure"
      readonly status: StatusName
      readonly location: ModuleId | undefined
      /** The index the reference records (and its explainer reads as a function handle index). */
      readonly function: number
      readonly codeOffset: number
      readonly message: string | undefined
    }

export const EXECUTED: VmStatus = { _tag: "Executed" }

export const vmError = (status: StatusName, message?: string): VmStatus => ({ _tag: "Error", status, message })

/** The status code a VM status stands for (`VMStatus::status_code`). */
export const vmStatusCode = (s: VmStatus): StatusName => {
  switch (s._tag) {
    case "Executed":
      return "EXECUTED"
    case "MoveAbort":
      return "ABORTED"
    default:
      return s.status
  }
}
