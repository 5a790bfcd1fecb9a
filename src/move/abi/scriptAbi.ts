import type { CompiledScript } from "../binary/CompiledModule.js"
import type { MoveFunctionAbi } from "./MoveModuleAbi.js"
import { abilityNames, typeString } from "./typeString.js"

/**
 * A script's ABI as the REST API shows it in a script payload's `code.abi` (the reference's
 * `MoveFunction` of a `CompiledScript`): one public entry function named `main`, never a view,
 * its type parameters' constraints, its parameters (signers included) and no return values.
 */
export const scriptAbi = (s: CompiledScript): MoveFunctionAbi => ({
  name: "main",
  visibility: "public",
  is_entry: true,
  is_view: false,
  generic_type_params: s.typeParameters.map((c) => ({ constraints: abilityNames(c) })),
  params: (s.signatures[s.parameters] ?? []).map((t) => typeString(s, t)),
  return: []
})
