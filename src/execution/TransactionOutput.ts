/**
 * What executing one user transaction produced (the reference's `TransactionOutput`): whether it
 * is kept in the ledger or discarded, its write set (with state-value metadata where the reference
 * records it), its events (the fee statement last), the gas it used, and the VM status behind it.
 *
 * Keep vs discard is data, as revm keeps "included" and "not included" apart: a discarded
 * transaction has no effect at all (no write set, no events, no fee, sequence number unchanged).
 */
import type { ContractEvent } from "../domain/ContractEvent.js"
import type { AbortLocation, ExecutionStatus } from "../domain/ExecutionStatus.js"
import type { ModuleId } from "../domain/TypeTag.js"
import type { WriteSet } from "../domain/WriteSet.js"
import type { FeeStatement } from "./FeeStatement.js"
import { type StatusName, StatusCodes, statusType } from "../move/vm/StatusCode.js"
import type { VmStatus } from "./VmStatus.js"

export type { ExecutionStatus } from "../domain/ExecutionStatus.js"

/** A VM status's location as the ledger records it (undefined = a script). */
export const abortLocation = (m: ModuleId | undefined): AbortLocation =>
  m === undefined ? { _tag: "Script" } : { _tag: "Module", module: m }

const misc = (status: StatusName): ExecutionStatus => ({
  _tag: "MiscellaneousError",
  statusCode: BigInt(StatusCodes[status])
})

export const SUCCESS: ExecutionStatus = { _tag: "Success" }

export type TransactionStatus =
  | { readonly _tag: "Keep"; readonly status: ExecutionStatus }
  | { readonly _tag: "Discard"; readonly status: StatusName }

export interface TransactionOutput {
  readonly status: TransactionStatus
  /** Empty when discarded. */
  readonly writeSet: WriteSet
  /** Emission order, the fee statement last; empty when discarded. */
  readonly events: ReadonlyArray<ContractEvent>
  /** External gas units; 0 when discarded. */
  readonly gasUsed: bigint
  readonly feeStatement: FeeStatement | undefined
  /** The run's VM status (its message is what simulation appends to `vm_status`). */
  readonly vmStatus: VmStatus
}

const EMPTY_WRITE_SET: WriteSet = { entries: [] }

/** A discarded transaction's output: nothing happened. */
export const discardedOutput = (status: StatusName, vmStatus: VmStatus): TransactionOutput => ({
  status: { _tag: "Discard", status },
  writeSet: EMPTY_WRITE_SET,
  events: [],
  gasUsed: 0n,
  feeStatement: undefined,
  vmStatus
})

/**
 * The reference's `TransactionStatus::from_vm_status` (over `VMStatus::keep_or_discard`): aborts,
 * out of gas and runtime failures are kept; validation, invariant and unknown statuses are
 * discarded (invariant violations are kept as a miscellaneous error when the framework enables
 * CHARGE_INVARIANT_VIOLATION); verification and deserialization statuses are kept as a
 * miscellaneous error carrying the status.
 */
export const transactionStatusOf = (s: VmStatus, chargeInvariantViolation: boolean): TransactionStatus => {
  switch (s._tag) {
    case "Executed":
      return { _tag: "Keep", status: SUCCESS }
    case "MoveAbort":
      return {
        _tag: "Keep",
        status: { _tag: "MoveAbort", location: abortLocation(s.location), code: s.code, info: s.info }
      }
    case "ExecutionFailure":
    case "Error": {
      const code = s.status
      if (code === "OUT_OF_GAS") return { _tag: "Keep", status: { _tag: "OutOfGas" } }
      if (code === "EXECUTION_LIMIT_REACHED" || code === "IO_LIMIT_REACHED" || code === "STORAGE_LIMIT_REACHED")
        return { _tag: "Keep", status: misc(code) }
      if (s._tag === "ExecutionFailure")
        return {
          _tag: "Keep",
          status: {
            _tag: "ExecutionFailure",
            location: abortLocation(s.location),
            function: s.function,
            codeOffset: s.codeOffset
          }
        }
      switch (statusType(code)) {
        case "Validation":
          return { _tag: "Discard", status: code }
        case "InvariantViolation":
          return chargeInvariantViolation ? { _tag: "Keep", status: misc(code) } : { _tag: "Discard", status: code }
        case "Verification":
        case "Deserialization":
          return { _tag: "Keep", status: misc(code) }
        case "Execution":
          // A runtime error raised outside any function frame: the reference records it as a
          // failure at the script location, function 0, offset 0.
          return {
            _tag: "Keep",
            status: { _tag: "ExecutionFailure", location: { _tag: "Script" }, function: 0, codeOffset: 0 }
          }
      }
    }
  }
}
