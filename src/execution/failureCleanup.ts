/**
 * `failed_transaction_cleanup` / `finish_aborted_transaction` (aptos-vm `aptos_vm.rs`): a
 * transaction that failed after its prologue is kept or discarded by its status
 * (`transactionStatusOf`). A kept one drops the user session's changes and starts again from the
 * prologue's: the sender's Account is created if the reference would have created it lazily (in an
 * abort-hook session, charged), then the failure epilogue charges the gas used so far (no storage
 * refund) and bumps the sequence number. If that epilogue fails, the transaction is discarded.
 */
import * as Result from "effect/Result"
import type { ChangeSet } from "../domain/Transaction.js"
import { chargeChangeSet } from "./chargeChangeSet.js"
import { feeStatementOf, runEpilogue, viewWith } from "./epilogue.js"
import { shouldCreateAccountResource } from "./prologue.js"
import { createAccountIfDoesNotExist } from "./runPayload.js"
import { withSlotMetadata } from "./slotMetadata.js"
import { squashChangeSets } from "./squashChangeSets.js"
import { discardedOutput, type TransactionOutput, transactionStatusOf } from "./TransactionOutput.js"
import type { TransactionMeter } from "./TransactionMeter.js"
import { sessionId, type TransactionRun } from "./TransactionRun.js"
import { vmStatusCode, type VmStatus, vmError } from "./VmStatus.js"

/**
 * The reference's `hack_account_creation_fee_lower_bound` (V2): one slot plus
 * `size_of::<AccountResource>()` bytes, the Rust struct's in-memory size on a 64-bit target,
 * from its fields in aptos-core's types/src/account_config/resources/core_account.rs and
 * types/src/event.rs: authentication_key Vec<u8> (24), sequence_number and guid_creation_num u64
 * (8 + 8), two EventHandle { count u64, key EventKey { creation_number u64, account_address
 * [u8; 32] } } (48 each), two Option<AccountAddress> (33 each: no niche in a byte array) = 202,
 * rounded up to the 8-byte alignment = 208. Computed from the source, not measured on a binary.
 */
const ACCOUNT_RESOURCE_SIZE = 208n

export const failureCleanup = (
  run: TransactionRun,
  prologue: ChangeSet,
  vmStatus: VmStatus,
  meter: TransactionMeter
): TransactionOutput => {
  const status = transactionStatusOf(vmStatus, run.features.isEnabled("CHARGE_INVARIANT_VIOLATION"))
  if (status._tag === "Discard") return discardedOutput(status.status, vmStatus)

  let previous = prologue
  if (shouldCreateAccountResource(run.md, run.features, run.view)) {
    const view = viewWith(run.view, prologue)
    let hook = run.vm.session(view, { id: sessionId(run, "RunOnAbort"), user: run.user })
    // Out of gas most likely: retried unmetered, and the fee checked against a lower bound below.
    if (createAccountIfDoesNotExist(run, hook, meter)._tag !== "Success") {
      hook = run.vm.session(view, { id: sessionId(run, "RunOnAbort"), user: run.user })
      const again = createAccountIfDoesNotExist(run, hook, undefined)
      if (again._tag !== "Success")
        return discardedOutput(
          "UNEXPECTED_ERROR_FROM_KNOWN_MOVE_FUNCTION",
          vmError("UNEXPECTED_ERROR_FROM_KNOWN_MOVE_FUNCTION")
        )
    }
    const finished = hook.finish()
    if (finished._tag !== "Success")
      return discardedOutput(
        "UNEXPECTED_ERROR_FROM_KNOWN_MOVE_FUNCTION",
        vmError("UNEXPECTED_ERROR_FROM_KNOWN_MOVE_FUNCTION")
      )
    const combined = squashChangeSets(prologue, finished.changeSet)
    if (Result.isFailure(combined))
      return discardedOutput(
        "UNKNOWN_INVARIANT_VIOLATION_ERROR",
        vmError("UNKNOWN_INVARIANT_VIOLATION_ERROR", combined.failure)
      )
    // Charged as the reference does; running out here is logged there and ignored.
    previous = chargeChangeSet(run, meter, combined.success).changeSet
    const price = run.md.gasUnitPrice
    if (price !== 0n || !run.features.isEnabled("DEFAULT_ACCOUNT_RESOURCE")) {
      const actual = meter.gasUsed * price + meter.storageFeeUsed
      const lowerBound = run.params.storageFeePerStateSlot + run.params.storageFeePerStateByte * ACCOUNT_RESOURCE_SIZE
      if (actual < lowerBound)
        return discardedOutput(
          "UNEXPECTED_ERROR_FROM_KNOWN_MOVE_FUNCTION",
          vmError(
            "UNEXPECTED_ERROR_FROM_KNOWN_MOVE_FUNCTION",
            "Insufficient fee for storing account for lazy account creation"
          )
        )
    }
  }

  const feeStatement = feeStatementOf(meter, 0n)
  const epilogue = runEpilogue(run, previous, feeStatement, meter.balance, false)
  if (epilogue._tag !== "Ok") return discardedOutput(vmStatusCode(epilogue.vmStatus), epilogue.vmStatus)
  const final = squashChangeSets(previous, epilogue.changeSet)
  if (Result.isFailure(final))
    return discardedOutput(
      "UNKNOWN_INVARIANT_VIOLATION_ERROR",
      vmError("UNKNOWN_INVARIANT_VIOLATION_ERROR", final.failure)
    )
  const cs = withSlotMetadata(run, final.success)
  return {
    status,
    writeSet: cs.writeSet,
    events: cs.events,
    gasUsed: meter.gasUsed,
    feeStatement,
    vmStatus
  }
}
