/**
 * The user session (aptos-vm `execute_user_transaction_impl` after the prologue, and
 * `execute_script_or_entry_function`): over the prologue's changes, create the sender's Account
 * lazily when the reference would (`create_account_if_does_not_exist`, metered), charge the
 * intrinsic gas (and the keyless base), run the payload (an entry function with its signers and
 * validated arguments, or a script), resolve a pending module publish, and finish the session into
 * a change set that includes the prologue's writes.
 */
import * as Result from "effect/Result"
import { BcsWriter } from "../bcs/index.js"
import { addressFromNumber } from "../domain/AccountAddress.js"
import type { ChangeSet } from "../domain/Transaction.js"
import type { VmSession } from "../move/vm/VmSession.js"
import { VmError } from "../move/vm/VmError.js"
import { viewWith } from "./epilogue.js"
import { shouldCreateAccountResource } from "./prologue.js"
import { publishModules } from "./publishModules.js"
import { squashChangeSets } from "./squashChangeSets.js"
import { asStatusName } from "../move/vm/StatusCode.js"
import { intrinsicGas } from "./TransactionGasParams.js"
import type { TransactionMeter } from "./TransactionMeter.js"
import { sessionId, type TransactionRun } from "./TransactionRun.js"
import { vmStatusOf } from "./vmStatusOf.js"
import { type VmStatus, vmError } from "./VmStatus.js"

export type PayloadOutcome =
  /** The prologue's and the payload's changes, as one change set relative to the run's view. */
  | { readonly _tag: "Ok"; readonly changeSet: ChangeSet }
  /** The payload failed: kept or discarded by its status (`failed_transaction_cleanup`). */
  | { readonly _tag: "Failed"; readonly vmStatus: VmStatus }
  /** Lazy account creation failed: the reference discards the transaction outright. */
  | { readonly _tag: "Discard"; readonly vmStatus: VmStatus }

const ONE = addressFromNumber(1)

/** `0x1::account::create_account_if_does_not_exist(sender)` in `session`, metered. */
export const createAccountIfDoesNotExist = (
  run: TransactionRun,
  session: VmSession,
  meter: TransactionMeter | undefined
) => {
  const w = new BcsWriter(40)
  w.fixed(run.md.sender)
  return session.execute(
    {
      module: { address: ONE, name: "account" },
      function: "create_account_if_does_not_exist",
      tyArgs: [],
      signers: [],
      args: [w.toBytes()]
    },
    { mode: "system", gas: meter?.gas }
  )
}

/** A meter charge made by the executor, as the failure it causes. */
const charge = (f: () => void): VmStatus | undefined => {
  try {
    f()
    return undefined
  } catch (e) {
    if (e instanceof VmError) return vmError(asStatusName(e.status), e.detail)
    throw e
  }
}

/** `charge_intrinsic_gas_for_transaction` (and `charge_keyless`): the failure it causes, if any. */
export const chargeIntrinsic = (run: TransactionRun, meter: TransactionMeter): VmStatus | undefined => {
  const md = run.md
  const intrinsic = intrinsicGas(run.params, md.transactionSize) + (md.isKeyless ? run.params.keylessBase : 0n)
  return charge(() => meter.chargeExecution(intrinsic))
}

export const runPayload = (run: TransactionRun, prologue: ChangeSet, meter: TransactionMeter): PayloadOutcome => {
  const md = run.md
  const view = viewWith(run.view, prologue)
  const session = run.vm.session(view, { id: sessionId(run, "Txn"), user: run.user })

  if (shouldCreateAccountResource(md, run.features, run.view)) {
    const created = createAccountIfDoesNotExist(run, session, meter)
    if (created._tag !== "Success") return { _tag: "Discard", vmStatus: vmStatusOf(created) }
  }

  const charged = chargeIntrinsic(run, meter)
  if (charged !== undefined) return { _tag: "Failed", vmStatus: charged }

  const signers = [md.sender, ...md.signers.secondarySignerAddresses]
  const exe = md.executable
  let outcome: ReturnType<VmSession["execute"]>
  if (exe._tag === "EntryFunction") {
    const f = exe.entryFunction
    outcome = session.execute(
      { module: f.module, function: f.function, tyArgs: f.typeArgs, signers, args: f.args },
      { mode: "entry", gas: meter.gas }
    )
  } else if (exe._tag === "Script") {
    if (!run.features.isEnabled("ALLOW_SERIALIZED_SCRIPT_ARGS") && exe.script.args.some((a) => a._tag === "Serialized"))
      return { _tag: "Failed", vmStatus: vmError("FEATURE_UNDER_GATING") }
    outcome = session.executeScript(exe.script, signers, { gas: meter.gas })
  } else return { _tag: "Failed", vmStatus: vmError("EMPTY_PAYLOAD_PROVIDED") }
  if (outcome._tag !== "Success") return { _tag: "Failed", vmStatus: vmStatusOf(outcome) }

  const request = session.takePublishRequest()
  if (request !== undefined) {
    const published = publishModules(run, session, request, meter)
    if (published !== undefined) return { _tag: "Failed", vmStatus: published }
  }

  const finished = session.finish()
  if (finished._tag !== "Success") return { _tag: "Failed", vmStatus: vmStatusOf(finished) }
  const combined = squashChangeSets(prologue, finished.changeSet)
  if (Result.isFailure(combined))
    return { _tag: "Failed", vmStatus: vmError("UNKNOWN_INVARIANT_VIOLATION_ERROR", combined.failure) }
  return { _tag: "Ok", changeSet: combined.success }
}
