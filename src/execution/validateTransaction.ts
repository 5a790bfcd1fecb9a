/**
 * Mempool admission (the reference's `VMValidator::validate_transaction`): the feature gates, the
 * signature, `check_gas` and the prologue on the given state, nothing else (no payload runs, no
 * fee). SEQUENCE_NUMBER_TOO_NEW is reported like any other status; the mempool parks such
 * transactions (the reference's validator treats it as success).
 */
import type { SignedTransaction } from "../domain/Transaction.js"
import type { MoveVm } from "../move/vm/MoveVm.js"
import type { StateView } from "../move/vm/StateView.js"
import { checkAndRunPrologue } from "./executeTransaction.js"
import type { StatusName } from "../move/vm/StatusCode.js"
import type { ExecuteOptions } from "./TransactionRun.js"
import type { VmStatus } from "./VmStatus.js"

export type ValidationResult =
  | { readonly _tag: "Valid" }
  | { readonly _tag: "Invalid"; readonly status: StatusName; readonly vmStatus: VmStatus }

export const validateTransaction = (
  vm: MoveVm,
  view: StateView,
  txn: SignedTransaction,
  options: Omit<ExecuteOptions, "simulation"> = {}
): ValidationResult => {
  const started = checkAndRunPrologue(vm, view, txn, { ...options, simulation: false })
  if ("run" in started) return { _tag: "Valid" }
  const status = started.status
  return status._tag === "Discard"
    ? { _tag: "Invalid", status: status.status, vmStatus: started.vmStatus }
    : { _tag: "Invalid", status: "UNKNOWN_VALIDATION_STATUS", vmStatus: started.vmStatus }
}
