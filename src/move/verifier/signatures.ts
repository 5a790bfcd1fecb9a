/**
 * Where references may appear, and instantiations' constraints, in the types a module declares
 * (the reference's `signature` checker, for the signatures outside instructions; type safety
 * checks the type arguments instructions carry):
 *
 *  - a struct's field never holds a reference, at any depth (INVALID_SIGNATURE_TOKEN): a reference
 *    packed into a value would leave the borrow checker's sight, which tracks references only on
 *    the stack and in locals;
 *  - a function's parameters, returns and locals may be references only at their top level
 *    (`&vector<u8>`, not `vector<&u8>`);
 *  - every type parameter a type names exists (INDEX_OUT_OF_BOUNDS), and every struct
 *    instantiation's arguments have the abilities its type parameters require
 *    (CONSTRAINT_NOT_SATISFIED): `Object<T: key>` of a `T` without key is no type.
 */
import type { CompiledModule } from "../binary/CompiledModule.js"
import type { SignatureToken } from "../binary/SignatureToken.js"
import { abilitiesOf } from "./abilities.js"
import { fieldsOf } from "./structDefinitions.js"
import { containsReference, typeParametersWithin } from "./typeSafetyTokens.js"
import type { VerifyFailure } from "./VerifyFailure.js"

/** The first problem of `t` in a context whose type parameters have `constraints`, or undefined. */
const problem = (
  m: CompiledModule,
  t: SignatureToken,
  constraints: ReadonlyArray<number>,
  topLevelReference: boolean
): VerifyFailure | undefined => {
  if (!typeParametersWithin(t, constraints.length))
    return { status: "INDEX_OUT_OF_BOUNDS", message: "a type names a type parameter that is not declared" }
  const inner = topLevelReference && (t._tag === "Reference" || t._tag === "MutableReference") ? t.to : t
  if (containsReference(inner)) return { status: "INVALID_SIGNATURE_TOKEN", message: "a reference inside a type" }
  return instantiations(m, inner, constraints)
}

/** Every struct instantiation in `t` (depth first) has type arguments meeting its constraints. */
const instantiations = (
  m: CompiledModule,
  t: SignatureToken,
  constraints: ReadonlyArray<number>
): VerifyFailure | undefined => {
  switch (t._tag) {
    case "Reference":
    case "MutableReference":
      return instantiations(m, t.to, constraints)
    case "Vector":
      return instantiations(m, t.element, constraints)
    case "StructInstantiation": {
      const params = m.structHandles[t.handle]!.typeParameters
      if (params.length !== t.typeArgs.length)
        return {
          status: "NUMBER_OF_TYPE_ARGUMENTS_MISMATCH",
          message: `${m.identifiers[m.structHandles[t.handle]!.name]}: ${t.typeArgs.length} type arguments for ${params.length}`
        }
      for (let i = 0; i < t.typeArgs.length; i++) {
        const need = params[i]!.constraints
        const arg = t.typeArgs[i]!
        if ((abilitiesOf(m, arg, constraints) & need) !== need)
          return {
            status: "CONSTRAINT_NOT_SATISFIED",
            message: `${m.identifiers[m.structHandles[t.handle]!.name]}: type argument ${i} lacks abilities its parameter requires`
          }
        const inner = instantiations(m, arg, constraints)
        if (inner !== undefined) return inner
      }
      return undefined
    }
    case "Function":
      for (const a of [...t.args, ...t.results]) {
        const f = instantiations(m, a, constraints)
        if (f !== undefined) return f
      }
      return undefined
    default:
      return undefined
  }
}

export const verifySignatures = (m: CompiledModule): VerifyFailure | undefined => {
  for (const d of m.structDefs) {
    const h = m.structHandles[d.structHandle]!
    const constraints = h.typeParameters.map((p) => p.constraints)
    for (const f of fieldsOf(d)) {
      const p = problem(m, f.type, constraints, false)
      if (p !== undefined)
        return { ...p, message: `struct ${m.identifiers[h.name]}, field ${m.identifiers[f.name]}: ${p.message}` }
    }
  }
  for (const h of m.functionHandles) {
    for (const sig of [h.parameters, h.returns])
      for (const t of m.signatures[sig]!) {
        const p = problem(m, t, h.typeParameters, true)
        if (p !== undefined) return { ...p, message: `function ${m.identifiers[h.name]}: ${p.message}` }
      }
  }
  for (let i = 0; i < m.functionDefs.length; i++) {
    const d = m.functionDefs[i]!
    if (d.code === undefined) continue
    const h = m.functionHandles[d.function]!
    for (const t of m.signatures[d.code.locals]!) {
      const p = problem(m, t, h.typeParameters, true)
      if (p !== undefined)
        return { ...p, message: `function ${m.identifiers[h.name]}, locals: ${p.message}`, functionDef: i }
    }
  }
  return undefined
}
