/**
 * `run_success_epilogue` / `run_failure_epilogue` (aptos-vm `transaction_validation.rs`): the
 * framework's `versioned_epilogue(sender, fee payer, EpilogueArgs)` in an unmetered epilogue
 * session stacked on the changes so far. It charges the fee (burn, or mint the refund), bumps the
 * sequence number unless the transaction is orderless, and emits the FeeStatement last.
 *
 * A success epilogue that aborts with ECANT_PAY_GAS_DEPOSIT stays that abort (the transaction is
 * then kept as failed); any other failure is UNEXPECTED_ERROR_FROM_KNOWN_MOVE_FUNCTION, as after a
 * failure epilogue.
 */
import { addressEquals, addressFromNumber } from "../domain/AccountAddress.js"
import type { ChangeSet } from "../domain/Transaction.js"
import type { StateView } from "../move/vm/StateView.js"
import type { VmFailure } from "../move/vm/VmFailure.js"
import type { VmSession } from "../move/vm/VmSession.js"
import { encodeEpilogueArgs } from "./EpilogueArgs.js"
import { overlayStateView } from "./OverlayStateView.js"
import type { FeeStatement } from "./FeeStatement.js"
import type { TransactionMeter } from "./TransactionMeter.js"
import { sessionId, type TransactionRun } from "./TransactionRun.js"
import { boundedMessage, vmStatusOf } from "./vmStatusOf.js"
import { type VmStatus, vmError } from "./VmStatus.js"

const ONE = addressFromNumber(1)
const VALIDATION = { address: ONE, name: "transaction_validation" }

/** Versions reported for modules an uncommitted layer writes: unique, above any ledger version. */
let layerVersion = 1n << 62n
export const nextLayerVersion = (): bigint => ++layerVersion

/**
 * `view` with `changes` on top, for the next session; `view` itself when they write nothing (a
 * sequence-number prologue writes nothing: its session's reads then skip an overlay lookup each).
 */
export const viewWith = (view: StateView, changes: ChangeSet): StateView =>
  changes.writeSet.entries.length === 0
    ? view
    : overlayStateView(view, [{ writeSet: changes.writeSet, version: nextLayerVersion() }])

/** The fee statement the meter's totals make (`fee_statement_from_gas_meter`). */
export const feeStatementOf = (meter: TransactionMeter, storageRefund: bigint): FeeStatement => ({
  totalChargeGasUnits: meter.gasUsed,
  executionGasUnits: meter.externalRoundUp(meter.executionUsed),
  ioGasUnits: meter.externalRoundUp(meter.ioUsed),
  storageFeeOctas: meter.storageFeeUsed,
  storageFeeRefundOctas: storageRefund
})

const unexpected = (f: VmFailure | string): VmStatus => {
  if (typeof f === "string") return vmError("UNEXPECTED_ERROR_FROM_KNOWN_MOVE_FUNCTION", f)
  const s = vmStatusOf(f)
  const detail =
    s._tag === "MoveAbort" ? `Move abort ${s.code}` : s._tag === "Executed" ? "" : `${s.status} ${s.message ?? ""}`
  return vmError(
    "UNEXPECTED_ERROR_FROM_KNOWN_MOVE_FUNCTION",
    boundedMessage(`[aptos_vm] Unexpected epilogue error: ${detail.trim()}`)
  )
}

/** `convert_epilogue_error` (success path). */
const convertSuccessEpilogueError = (f: VmFailure): VmStatus => {
  if (
    f._tag === "Abort" &&
    f.location !== undefined &&
    addressEquals(f.location.address, ONE) &&
    f.location.name === VALIDATION.name &&
    f.code >> 16n === 2n &&
    (f.code & 0xffffn) === 1005n
  )
    return vmStatusOf(f)
  return unexpected(f)
}

export type EpilogueOutcome =
  | { readonly _tag: "Ok"; readonly changeSet: ChangeSet }
  | { readonly _tag: "Failed"; readonly vmStatus: VmStatus }

/**
 * Runs `versioned_epilogue` over `previous` (the changes it is stacked on); its session's change
 * set. `before` runs first in the same session (a multisig transaction's cleanup call); its
 * failure is returned as it is.
 */
export const runEpilogue = (
  run: TransactionRun,
  previous: ChangeSet,
  feeStatement: FeeStatement,
  gasUnitsRemaining: bigint,
  success: boolean,
  before?: (session: VmSession) => VmStatus | undefined
): EpilogueOutcome => {
  const md = run.md
  const view = viewWith(run.view, previous)
  const args = run.vm.loader.withView(view, () =>
    encodeEpilogueArgs((a, n) => run.vm.loader.tryLoad(a, n)?.cm, {
      feeStatement,
      gasUnitPrice: md.gasUnitPrice,
      maxGasAmount: md.maxGasAmount,
      gasUnitsRemaining,
      isSimulation: run.simulation,
      isOrderless: md.isOrderless
    })
  )
  if (typeof args === "string") return { _tag: "Failed", vmStatus: unexpected(`EpilogueArgs: ${args}`) }
  const session = run.vm.session(view, { id: sessionId(run, "Epilogue"), user: run.user })
  const early = before?.(session)
  if (early !== undefined) return { _tag: "Failed", vmStatus: early }
  const outcome = session.execute(
    {
      module: VALIDATION,
      function: "versioned_epilogue",
      tyArgs: [],
      signers: [md.sender, md.signers.feePayer?.address ?? md.sender],
      args: [args]
    },
    { mode: "system" }
  )
  if (outcome._tag !== "Success")
    return { _tag: "Failed", vmStatus: success ? convertSuccessEpilogueError(outcome) : unexpected(outcome) }
  const finished = session.finish()
  if (finished._tag !== "Success") return { _tag: "Failed", vmStatus: unexpected(finished) }
  return { _tag: "Ok", changeSet: finished.changeSet }
}
