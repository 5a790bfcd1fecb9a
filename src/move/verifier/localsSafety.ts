/**
 * Locals safety (the reference's `locals_safety`): whether each local holds a value wherever it is
 * used, and whether a value that cannot be dropped is ever lost. Type safety checks what a local's
 * type allows, not whether the local holds anything at that point; without this pass a function
 * could read a local it already moved out (duplicating a `Coin`), or overwrite or return past a
 * local holding a `Coin` (destroying money the type system says cannot be dropped).
 *
 * A forward dataflow over the control-flow graph (`controlFlowGraph.ts`) with one state per local:
 * available (holds a value), unavailable (holds none), or maybe available (holds one on some paths
 * into this point and not on others). Parameters start available, other locals unavailable; at a
 * join two different states become maybe available. Per instruction:
 *  - StLoc over a local that is (maybe) available and whose type lacks drop:
 *    STLOC_UNSAFE_TO_DESTROY_ERROR; afterwards the local is available;
 *  - MoveLoc of a local not surely available: MOVELOC_UNAVAILABLE_ERROR; afterwards unavailable;
 *  - CopyLoc: COPYLOC_UNAVAILABLE_ERROR; MutBorrowLoc and ImmBorrowLoc: BORROWLOC_UNAVAILABLE_ERROR;
 *  - Ret while a local whose type lacks drop is (maybe) available:
 *    UNSAFE_RET_UNUSED_VALUES_WITHOUT_DROP.
 * Abort ends a path without checks: aborting discards the whole transaction's effects.
 *
 * Runs after type safety (it relies on local indices naming declared locals and on abilities being
 * computable); anything else unexpected is refused, never thrown.
 */
import { Ability, type CompiledModule, type Instruction } from "../binary/CompiledModule.js"
import { Opcode } from "../binary/Opcode.js"
import type { SignatureToken } from "../binary/SignatureToken.js"
import type { StatusName } from "../vm/StatusCode.js"
import { abilitiesOf } from "./abilities.js"
import { buildControlFlowGraph, Meter, runForward, TooComplex } from "./controlFlowGraph.js"
import type { VerifyFailure } from "./VerifyFailure.js"

// The enum object held once: under some loaders each `Opcode.X` goes through a module-namespace
// getter, and the transfer functions switch on dozens of them per instruction.
const O = Opcode

/** The state of one local; numbers so a whole state is a compact `Uint8Array`. */
export const LocalState = { Unavailable: 0, Available: 1, MaybeAvailable: 2 } as const

// The reference's meter rates for this pass.
const STEP_COST = 15
const RET_PER_LOCAL_COST = 30
const JOIN_BASE_COST = 10
const JOIN_PER_LOCAL_COST = 5

class Refused {
  constructor(
    readonly status: StatusName,
    readonly message: string,
    readonly offset: number
  ) {}
}

/** Refuses the module or script `m` (a script through `scriptAsModule`), or undefined if it passes. */
export const verifyLocalsSafety = (m: CompiledModule): VerifyFailure | undefined => {
  for (let f = 0; f < m.functionDefs.length; f++) {
    const def = m.functionDefs[f]!
    if (def.code === undefined || def.code.code.length === 0) continue
    const handle = m.functionHandles[def.function]
    const params = handle === undefined ? undefined : m.signatures[handle.parameters]
    const locals = m.signatures[def.code.locals]
    if (handle === undefined || params === undefined || locals === undefined)
      return {
        status: "VERIFIER_INVARIANT_VIOLATION",
        message: "function without handle or signatures",
        functionDef: f
      }
    try {
      verifyFunction(m, handle.typeParameters, params.length, [...params, ...locals], def.code.code)
    } catch (e) {
      if (e instanceof Refused) return { status: e.status, message: e.message, functionDef: f, offset: e.offset }
      if (e instanceof TooComplex) return { status: "CONSTRAINT_NOT_SATISFIED", message: e.message, functionDef: f }
      // abilitiesOf on a type parameter the function lacks: type safety refuses that first.
      return { status: "VERIFIER_INVARIANT_VIOLATION", message: String(e), functionDef: f }
    }
  }
  return undefined
}

const verifyFunction = (
  m: CompiledModule,
  typeParameters: ReadonlyArray<number>,
  parameterCount: number,
  localTypes: ReadonlyArray<SignatureToken>,
  code: ReadonlyArray<Instruction>
): void => {
  const n = localTypes.length
  const droppable = new Uint8Array(n)
  for (let i = 0; i < n; i++)
    droppable[i] = (abilitiesOf(m, localTypes[i]!, typeParameters) & Ability.Drop) !== 0 ? 1 : 0
  const initial = new Uint8Array(n)
  for (let i = 0; i < parameterCount; i++) initial[i] = LocalState.Available
  const cfg = buildControlFlowGraph(code)
  const meter = new Meter()

  const stateOf = (s: Uint8Array, local: number, offset: number): number => {
    if (local >= n) throw new Refused("INDEX_OUT_OF_BOUNDS", `local ${local} is not declared`, offset)
    return s[local]!
  }
  const requireAvailable = (s: Uint8Array, local: number, offset: number, status: StatusName): void => {
    if (stateOf(s, local, offset) !== LocalState.Available)
      throw new Refused(status, `local ${local} may not hold a value here`, offset)
  }

  runForward(cfg, initial, {
    copy: (s) => s.slice(),
    join: (into, incoming) => {
      meter.add(JOIN_BASE_COST + JOIN_PER_LOCAL_COST * n)
      let out: Uint8Array<ArrayBuffer> | undefined
      for (let i = 0; i < n; i++) {
        const a = into[i]!
        if (a === incoming[i]! || a === LocalState.MaybeAvailable) continue
        out ??= into.slice()
        out[i] = LocalState.MaybeAvailable
      }
      return out
    },
    execute: (block, s) => {
      for (let offset = cfg.starts[block]!; offset <= cfg.ends[block]!; offset++) {
        meter.add(STEP_COST)
        const ins = code[offset]!
        switch (ins.op) {
          case O.StLoc: {
            const state = stateOf(s, ins.index, offset)
            if (state !== LocalState.Unavailable && droppable[ins.index] === 0)
              throw new Refused(
                "STLOC_UNSAFE_TO_DESTROY_ERROR",
                `local ${ins.index} may hold a value without drop`,
                offset
              )
            s[ins.index] = LocalState.Available
            break
          }
          case O.MoveLoc:
            requireAvailable(s, ins.index, offset, "MOVELOC_UNAVAILABLE_ERROR")
            s[ins.index] = LocalState.Unavailable
            break
          case O.CopyLoc:
            requireAvailable(s, ins.index, offset, "COPYLOC_UNAVAILABLE_ERROR")
            break
          case O.MutBorrowLoc:
          case O.ImmBorrowLoc:
            requireAvailable(s, ins.index, offset, "BORROWLOC_UNAVAILABLE_ERROR")
            break
          case O.Ret:
            meter.add(RET_PER_LOCAL_COST * n)
            for (let i = 0; i < n; i++)
              if (s[i] !== LocalState.Unavailable && droppable[i] === 0)
                throw new Refused(
                  "UNSAFE_RET_UNUSED_VALUES_WITHOUT_DROP",
                  `local ${i} may still hold a value without drop`,
                  offset
                )
            break
          default:
            break
        }
      }
      return s
    }
  })
}
