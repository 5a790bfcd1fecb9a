import type { ModuleId } from "../../domain/TypeTag.js"
import type { Loader } from "./Loader.js"
import { abortInfo } from "./moduleMetadata.js"
import type { StateView } from "./StateView.js"
import { MoveAbort, VmError } from "./VmError.js"

/** How a call failed: a Move abort (with its error-map entry) or a VM error. */
export type VmFailure =
  | {
      readonly _tag: "Abort"
      readonly code: bigint
      /** The aborting module; undefined for a script. */
      readonly location: ModuleId | undefined
      /** Name and description from the aborting module's error map, when it has one. */
      readonly info: { readonly name: string; readonly description: string } | undefined
      readonly message: string | undefined
    }
  | { readonly _tag: "Error"; readonly error: VmError }

/** Anything a run threw, as a `VmFailure` (the error map read through `loader` over `view`). */
export const vmFailureOf = (e: unknown, loader: Loader, view: StateView): VmFailure => {
  if (e instanceof MoveAbort) {
    let info: { readonly name: string; readonly description: string } | undefined
    const location = e.location
    if (location !== undefined) {
      try {
        const aborted = loader.withView(view, () => loader.tryLoad(location.address, location.name))
        info = aborted === undefined ? undefined : abortInfo(aborted.metadata, e.code)
      } catch {
        info = undefined
      }
    }
    return { _tag: "Abort", code: e.code, location, info, message: e.abortMessage }
  }
  if (e instanceof VmError) return { _tag: "Error", error: e }
  if (e instanceof RangeError) return { _tag: "Error", error: new VmError("EXECUTION_STACK_OVERFLOW", e.message) }
  return {
    _tag: "Error",
    error: new VmError("UNKNOWN_INVARIANT_VIOLATION_ERROR", e instanceof Error ? e.message : String(e))
  }
}
