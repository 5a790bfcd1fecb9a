import * as Result from "effect/Result"
import type { ModuleId } from "../domain/TypeTag.js"
import { deserializeModule } from "../move/binary/deserialize.js"
import type { StateView } from "../move/vm/StateView.js"

/**
 * The name of function handle `index` of a module as `view` holds it, for the API's wording of an
 * execution failure ("Execution failed in 0x1::m::f at code offset N", `explainExecutionStatus`):
 * the chain asks it of the state a transaction ran on, a follower of the state before the version.
 */
export const functionNameIn = (view: StateView, module: ModuleId, index: number): string | undefined => {
  const stored = view.module(module.address, module.name)
  if (stored === undefined) return undefined
  const compiled = deserializeModule(stored.bytes)
  if (Result.isFailure(compiled)) return undefined
  const handle = compiled.success.functionHandles[index]
  return handle === undefined ? undefined : compiled.success.identifiers[handle.name]
}
