/**
 * The `acquires` annotations (the reference's `acquires_list_verifier`, and the duplicate check of
 * its `check_duplication`): each function of a module lists the resource types of this module it
 * may borrow or move out of global storage, directly or through calls to this module's functions.
 * Reference safety trusts those lists at calls (a call to a function acquiring `R` while an `&R`
 * lives is refused, `referenceSafety.ts`); a list that left `R` out would let a callee move out or
 * mutably borrow the resource the caller still reads. So, per function with code:
 *
 *  - a resource listed twice: DUPLICATE_ACQUIRES_ANNOTATION;
 *  - MoveFrom, MutBorrowGlobal or ImmBorrowGlobal of a resource not listed, or a call to a function
 *    of this module whose list has a resource this one's lacks: MISSING_ACQUIRES_ANNOTATION;
 *  - a listed resource nothing acquires: EXTRANEOUS_ACQUIRES_ANNOTATION; one without key:
 *    INVALID_ACQUIRES_ANNOTATION.
 * Closures acquire nothing when packed or called here (the reference checks them at run time), and
 * calls to other modules' functions cannot touch this module's resources.
 *
 * The reference applies these rules whatever the bytecode version. Separate from
 * `verifyReferenceSafety`, so that the caller decides where it runs (the reference runs it after
 * reference safety, per function).
 */
import { Ability, type CompiledModule } from "../binary/CompiledModule.js"
import { Opcode } from "../binary/Opcode.js"
import type { VerifyFailure } from "./VerifyFailure.js"

// The enum object held once (see `controlFlowGraph.ts`).
const O = Opcode

/** Refuses the module `m`, or undefined if its acquires lists are exact. Scripts have none to check. */
export const verifyAcquires = (m: CompiledModule): VerifyFailure | undefined => {
  const byHandle = new Map<number, ReadonlyArray<number>>()
  for (const d of m.functionDefs) byHandle.set(d.function, d.acquiresGlobalResources)
  for (let f = 0; f < m.functionDefs.length; f++) {
    const def = m.functionDefs[f]!
    const annotated = new Set<number>()
    for (const r of def.acquiresGlobalResources) {
      if (annotated.has(r))
        return { status: "DUPLICATE_ACQUIRES_ANNOTATION", message: `struct ${r} is listed twice`, functionDef: f }
      annotated.add(r)
    }
    if (def.code === undefined) continue
    const actual = new Set<number>()
    const code = def.code.code
    for (let offset = 0; offset < code.length; offset++) {
      const ins = code[offset]!
      let direct: number | undefined
      let callee: number | undefined
      switch (ins.op) {
        case O.MoveFrom:
        case O.MutBorrowGlobal:
        case O.ImmBorrowGlobal:
          direct = ins.index
          break
        case O.MoveFromGeneric:
        case O.MutBorrowGlobalGeneric:
        case O.ImmBorrowGlobalGeneric:
          direct = m.structDefInstantiations[ins.index]?.def
          break
        case O.Call:
          callee = ins.index
          break
        case O.CallGeneric:
          callee = m.functionInstantiations[ins.index]?.handle
          break
        default:
          continue
      }
      if (direct !== undefined) {
        if (!annotated.has(direct))
          return {
            status: "MISSING_ACQUIRES_ANNOTATION",
            message: `struct ${direct} is acquired but not listed`,
            functionDef: f,
            offset
          }
        actual.add(direct)
      }
      if (callee === undefined || m.functionHandles[callee]?.module !== m.selfModuleHandleIndex) continue
      for (const r of byHandle.get(callee) ?? []) {
        if (!annotated.has(r))
          return {
            status: "MISSING_ACQUIRES_ANNOTATION",
            message: `the callee acquires struct ${r}, not listed`,
            functionDef: f,
            offset
          }
        actual.add(r)
      }
    }
    for (const r of annotated) {
      if (!actual.has(r))
        return {
          status: "EXTRANEOUS_ACQUIRES_ANNOTATION",
          message: `struct ${r} is listed but never acquired`,
          functionDef: f
        }
      const def = m.structDefs[r]
      const handle = def === undefined ? undefined : m.structHandles[def.structHandle]
      if (handle === undefined || (handle.abilities & Ability.Key) === 0)
        return { status: "INVALID_ACQUIRES_ANNOTATION", message: `struct ${r} has no key`, functionDef: f }
    }
  }
  return undefined
}
