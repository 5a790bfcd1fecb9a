/**
 * The reference's limits on a module's declarations (`LimitsVerifier` with Aptos's production
 * configuration, function values enabled as on devnet and mainnet today):
 *
 *  - a struct or function handle declares at most 32 type parameters (TOO_MANY_TYPE_PARAMETERS);
 *  - a function handle takes at most 128 parameters and returns at most 128 values, and so does
 *    a function type anywhere in a signature (TOO_MANY_PARAMETERS);
 *  - every type in a signature, a constant or a field is at most 20 deep and weighs at most 128
 *    nodes, a struct or a type parameter counting 4 (either may stand for a larger type) and any
 *    other node 1 (TOO_MANY_TYPE_NODES).
 *
 * Why we check them: a package that passes here would be refused when published to a network —
 * the local chain should say so first — and they bound what one signature costs every pass and
 * the VM's type substitution.
 */
import type { CompiledModule } from "../binary/CompiledModule.js"
import { innerTokens, type SignatureToken } from "../binary/SignatureToken.js"
import { fieldsOf } from "./structDefinitions.js"
import type { VerifyFailure } from "./VerifyFailure.js"

export const MAX_GENERIC_INSTANTIATION_LENGTH = 32
export const MAX_FUNCTION_PARAMETERS = 128
export const MAX_FUNCTION_RETURN_VALUES = 128
export const MAX_TYPE_NODES = 128
export const MAX_TYPE_DEPTH = 20
/** What a struct or a type parameter weighs among a type's nodes. */
const EXPANDING_NODE_WEIGHT = 4

/** Why `token` is over the limits, or undefined. Iterative: a token may be 256 deep. */
export const typeLimitFailure = (token: SignatureToken): VerifyFailure | undefined => {
  let size = 0
  const stack: Array<[SignatureToken, number]> = [[token, 1]]
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [t, depth] = top
    if (depth > MAX_TYPE_DEPTH)
      return { status: "TOO_MANY_TYPE_NODES", message: `a type nested more than ${MAX_TYPE_DEPTH} deep` }
    if (
      t._tag === "Function" &&
      (t.args.length > MAX_FUNCTION_PARAMETERS || t.results.length > MAX_FUNCTION_RETURN_VALUES)
    )
      return { status: "TOO_MANY_PARAMETERS", message: "a function type with too many parameters or results" }
    const expands = t._tag === "Struct" || t._tag === "StructInstantiation" || t._tag === "TypeParameter"
    size += expands ? EXPANDING_NODE_WEIGHT : 1
    for (const inner of innerTokens(t)) stack.push([inner, depth + 1])
  }
  return size > MAX_TYPE_NODES
    ? { status: "TOO_MANY_TYPE_NODES", message: `a type of ${size} weighted nodes (at most ${MAX_TYPE_NODES})` }
    : undefined
}

export const verifyLimits = (m: CompiledModule): VerifyFailure | undefined => {
  for (const h of m.functionHandles) {
    const name = m.identifiers[h.name]
    if (h.typeParameters.length > MAX_GENERIC_INSTANTIATION_LENGTH)
      return {
        status: "TOO_MANY_TYPE_PARAMETERS",
        message: `function ${name} declares ${h.typeParameters.length} type parameters`
      }
    if (m.signatures[h.parameters]!.length > MAX_FUNCTION_PARAMETERS)
      return {
        status: "TOO_MANY_PARAMETERS",
        message: `function ${name} takes ${m.signatures[h.parameters]!.length} parameters`
      }
    if (m.signatures[h.returns]!.length > MAX_FUNCTION_RETURN_VALUES)
      return {
        status: "TOO_MANY_PARAMETERS",
        message: `function ${name} returns ${m.signatures[h.returns]!.length} values`
      }
  }
  for (const h of m.structHandles)
    if (h.typeParameters.length > MAX_GENERIC_INSTANTIATION_LENGTH)
      return {
        status: "TOO_MANY_TYPE_PARAMETERS",
        message: `struct ${m.identifiers[h.name]} declares ${h.typeParameters.length} type parameters`
      }
  for (const s of m.signatures)
    for (const t of s) {
      const f = typeLimitFailure(t)
      if (f !== undefined) return f
    }
  for (const c of m.constantPool) {
    const f = typeLimitFailure(c.type)
    if (f !== undefined) return f
  }
  for (const d of m.structDefs)
    for (const field of fieldsOf(d)) {
      const f = typeLimitFailure(field.type)
      if (f !== undefined) return f
    }
  return undefined
}
