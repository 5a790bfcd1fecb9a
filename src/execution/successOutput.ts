/**
 * `success_transaction_cleanup` (aptos-vm `aptos_vm.rs`): a transaction kept as executed — its
 * payload succeeded and its changes are charged, or it is a multisig transaction, whatever its
 * inner payload did — ends with the success epilogue over `changes`. The output is those changes
 * and the epilogue's, squashed, with their slots' metadata; an epilogue that fails, or changes
 * that do not squash, go to `failureCleanup`. A multisig transaction's epilogue session runs its
 * cleanup call first (`before`: the successful or failed execution cleanup).
 */
import * as Result from "effect/Result"
import type { VmSession } from "../move/vm/VmSession.js"
import type { ChangeSet } from "../domain/Transaction.js"
import { runEpilogue } from "./epilogue.js"
import { failureCleanup } from "./failureCleanup.js"
import type { FeeStatement } from "./FeeStatement.js"
import { withSlotMetadata } from "./slotMetadata.js"
import { squashChangeSets } from "./squashChangeSets.js"
import { SUCCESS, type TransactionOutput } from "./TransactionOutput.js"
import type { TransactionMeter } from "./TransactionMeter.js"
import type { TransactionRun } from "./TransactionRun.js"
import { EXECUTED, type VmStatus, vmError } from "./VmStatus.js"

export const successOutput = (
  run: TransactionRun,
  prologue: ChangeSet,
  meter: TransactionMeter,
  changes: ChangeSet,
  feeStatement: FeeStatement,
  before?: (session: VmSession) => VmStatus | undefined
): TransactionOutput => {
  const epilogue = runEpilogue(run, changes, feeStatement, meter.balance, true, before)
  if (epilogue._tag === "Failed") return failureCleanup(run, prologue, epilogue.vmStatus, meter)
  const final = squashChangeSets(changes, epilogue.changeSet)
  if (Result.isFailure(final))
    return failureCleanup(run, prologue, vmError("UNKNOWN_INVARIANT_VIOLATION_ERROR", final.failure), meter)
  const cs = withSlotMetadata(run, final.success)
  return {
    status: { _tag: "Keep", status: SUCCESS },
    writeSet: cs.writeSet,
    events: cs.events,
    gasUsed: meter.gasUsed,
    feeStatement,
    vmStatus: EXECUTED
  }
}
