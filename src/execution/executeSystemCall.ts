import type { ChangeSet } from "../domain/Transaction.js"
import type { MoveVm } from "../move/vm/MoveVm.js"
import type { SessionId } from "../move/vm/SessionId.js"
import type { StateView } from "../move/vm/StateView.js"
import type { SessionCall } from "../move/vm/VmSession.js"
import type { VmFailure } from "../move/vm/VmFailure.js"

export type SystemCallOutcome =
  | {
      readonly _tag: "Success"
      readonly changeSet: ChangeSet
      /** BCS of each return value. */
      readonly values: ReadonlyArray<Uint8Array>
    }
  | VmFailure

/**
 * A system transaction's Move call (revm's `system_call`): one function run in its own session,
 * unmetered, with visibility bypassed and no prologue, fees or signature; `call.signers` fill the
 * leading signer parameters (the VM signer `@0x0` for `block::block_prologue*` and
 * `block::block_epilogue`, `@0x1` for genesis functions). Returns the session's change set (write
 * set relative to `view`, events in order) or the abort / error. Never throws.
 */
export const executeSystemCall = (
  vm: MoveVm,
  view: StateView,
  call: SessionCall,
  options: { readonly id: SessionId; readonly chainId?: number }
): SystemCallOutcome => {
  const session = vm.session(view, { id: options.id, chainId: options.chainId })
  const outcome = session.execute(call, { mode: "system" })
  if (outcome._tag !== "Success") return outcome
  const finished = session.finish()
  if (finished._tag !== "Success") return finished
  return { _tag: "Success", changeSet: finished.changeSet, values: outcome.values }
}
