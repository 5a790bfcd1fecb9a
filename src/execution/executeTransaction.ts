/**
 * One user transaction, start to finish (the reference's `AptosVM::execute_user_transaction`),
 * as a short list of stages, revm's handler shape:
 *
 * 1. `verifySignature` (skipped in simulation) and the feature gates around it → else discard;
 * 2. `runPrologue`: duplicate signers, account abstraction's authentication functions (metered,
 *    their gas carried into the transaction's meter), payload gates, `checkGas`,
 *    `versioned_prologue` (and the multisig prologue) → else discard with the mapped status;
 * 3. `runPayload`: lazy account creation, intrinsic gas, the entry function or script, module
 *    publishing, all metered, in the user session over the prologue's changes (`runMultisig` for a
 *    multisig payload: the inner payload runs as the multisig account, whose cleanup call precedes
 *    the epilogue);
 * 4. `chargeChangeSet`: IO gas and storage fees, deposits recorded in the slot metadata;
 * 5. `runEpilogue` (success): `versioned_epilogue` charges the fee, bumps the sequence number and
 *    emits the FeeStatement last;
 * any failure after the prologue goes to `failureCleanup` (keep with the failure epilogue, or
 * discard). Pure and synchronous: state only through `view`, never throws.
 */
import type { ChangeSet, SignedTransaction } from "../domain/Transaction.js"
import type { GasMeter } from "../move/vm/GasMeter.js"
import type { MoveVm } from "../move/vm/MoveVm.js"
import type { StateView } from "../move/vm/StateView.js"
import { chargeChangeSet } from "./chargeChangeSet.js"
import { feeStatementOf } from "./epilogue.js"
import { failureCleanup } from "./failureCleanup.js"
import { runPrologue } from "./prologue.js"
import { runMultisig } from "./runMultisig.js"
import { runPayload } from "./runPayload.js"
import { keylessValidationStatus, signatureFeatureGate } from "./signatures/features.js"
import { successOutput } from "./successOutput.js"
import { transactionMetadata } from "./TransactionMetadata.js"
import { TransactionMeter } from "./TransactionMeter.js"
import { discardedOutput, type TransactionOutput } from "./TransactionOutput.js"
import { type ExecuteOptions, type TransactionRun, transactionRun } from "./TransactionRun.js"
import { verifySignature } from "./verifySignature.js"
import { vmStatusCode, vmError } from "./VmStatus.js"

export type { ExecuteOptions } from "./TransactionRun.js"

/** Steps 1–2 (shared with `validateTransaction`): the run, or the output of a discarded transaction. */
export const checkAndRunPrologue = (
  vm: MoveVm,
  view: StateView,
  txn: SignedTransaction,
  options: ExecuteOptions
):
  | {
      readonly run: TransactionRun
      readonly prologue: ChangeSet
      /** Gas account abstraction's authentication used (undefined: none ran). */
      readonly authenticationGas: GasMeter | undefined
    }
  | TransactionOutput => {
  let md: ReturnType<typeof transactionMetadata>
  // A check made of these bytes already (admission's, kept with the pooled bytes) stands.
  const known = options.signatureCheck
  try {
    md = transactionMetadata(txn, known?._tag === "Valid" ? known.signers : undefined)
  } catch (e) {
    return discardedOutput("UNKNOWN_INVARIANT_VIOLATION_ERROR", vmError("UNKNOWN_INVARIANT_VIOLATION_ERROR", String(e)))
  }
  const run = transactionRun(vm, view, md, options)
  if (typeof run === "string") return discardedOutput("VM_STARTUP_FAILURE", vmError("VM_STARTUP_FAILURE", run))
  const isEnabled = (flag: number) => run.features.isEnabled(flag)
  const gate = signatureFeatureGate(txn.authenticator, isEnabled)
  if (gate !== undefined) return discardedOutput(gate.status, vmError(gate.status, gate.reason))
  if (!run.simulation) {
    const signature = known ?? verifySignature(txn)
    if (signature._tag === "Invalid")
      return discardedOutput("INVALID_SIGNATURE", vmError("INVALID_SIGNATURE", signature.reason))
    const keyless = keylessValidationStatus(signature.keyless, isEnabled)
    if (keyless !== undefined) return discardedOutput(keyless.status, vmError(keyless.status, keyless.reason))
  }
  const prologue = runPrologue(run)
  if (prologue._tag === "Discard") return discardedOutput(vmStatusCode(prologue.vmStatus), prologue.vmStatus)
  return { run, prologue: prologue.changeSet, authenticationGas: prologue.authenticationGas }
}

/**
 * Whatever a transaction's code does, executing it answers an output: a throw that escaped every
 * step above (a fault of this VM met by code the reference's verifier would have refused, say) is
 * UNKNOWN_INVARIANT_VIOLATION_ERROR and the transaction is discarded, as the reference discards a
 * transaction its VM cannot finish. A block is never held by one of its transactions. (A fork's
 * unfetched state is not lost by this: its reads log the key before throwing, and the block is
 * run again once it is fetched; `src/fork/StateMisses.ts`.)
 */
export const executeTransaction = (
  vm: MoveVm,
  view: StateView,
  txn: SignedTransaction,
  options: ExecuteOptions = {}
): TransactionOutput => {
  try {
    return executeUnguarded(vm, view, txn, options)
  } catch (e) {
    return discardedOutput(
      "UNKNOWN_INVARIANT_VIOLATION_ERROR",
      vmError("UNKNOWN_INVARIANT_VIOLATION_ERROR", `execution failed: ${e instanceof Error ? e.message : String(e)}`)
    )
  }
}

const executeUnguarded = (
  vm: MoveVm,
  view: StateView,
  txn: SignedTransaction,
  options: ExecuteOptions
): TransactionOutput => {
  const started = checkAndRunPrologue(vm, view, txn, options)
  if (!("run" in started)) return started
  const { run, prologue } = started
  const meter = new TransactionMeter(run.schedule, run.params, run.md.maxGasAmount, run.md.gasUnitPrice)
  if (started.authenticationGas !== undefined) meter.absorb(started.authenticationGas)

  if (run.md.multisigAddress !== undefined) return runMultisig(run, prologue, meter)

  const payload = runPayload(run, prologue, meter)
  if (payload._tag === "Discard") return discardedOutput(vmStatusCode(payload.vmStatus), payload.vmStatus)
  if (payload._tag === "Failed") return failureCleanup(run, prologue, payload.vmStatus, meter)

  const charged = chargeChangeSet(run, meter, payload.changeSet)
  if (charged._tag === "Failed") return failureCleanup(run, prologue, charged.vmStatus, meter)

  // ============= Gas fee cannot change after this line =============
  return successOutput(run, prologue, meter, charged.changeSet, feeStatementOf(meter, charged.storageRefund))
}
