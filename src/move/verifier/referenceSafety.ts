/**
 * Reference safety (the reference's `reference_safety`): the borrow checker of the bytecode. Type
 * safety says a value is a `&mut Coin`; only this pass says the `Coin` it points to still exists and
 * that nothing else may change it meanwhile. Without it a module can take `&mut wallet.coin`, move
 * the wallet away (depositing the coin), and still extract from the coin through the dangling
 * reference: money from nothing. The reference refuses that with MOVELOC_EXISTS_BORROW_ERROR.
 *
 * A forward dataflow over the control-flow graph (`controlFlowGraph.ts`): per block an abstract
 * state (`referenceSafetyState.ts`: what each local holds, and the borrow graph of
 * `referenceSafetyBorrowGraph.ts`), each block run from the join of its predecessors' exit states
 * until nothing changes. Within a block an abstract operand stack holds, per slot, a value or a
 * reference id; stack usage guarantees every block starts and ends with it empty. Each instruction
 * is mapped to the state's entry points here, with the reference's statuses (listed there).
 *
 * Details as the reference has them:
 *  - field borrows are labelled by the field's position (so two handles of one field conflict, and
 *    fields at one position of different variants of an enum are treated as one);
 *  - a call to a function defined in this module checks that the globals its `acquires` lists are
 *    not borrowed (the reference does so whatever the bytecode version; calls to other modules'
 *    functions cannot touch this module's globals);
 *  - MoveTo needs no check: publishing over an existing resource fails at run time;
 *  - PackClosure captures values only (type safety refuses captured references), CallClosure is a
 *    call without acquires;
 *  - work is metered at the reference's rates and refused past its per-function bound
 *    (CONSTRAINT_NOT_SATISFIED, "program too complex").
 *
 * Runs after type safety and locals safety, as in the reference: it relies on well-typed code (a
 * reference where a reference is expected) and on locals being assigned where used (a reference
 * local moved out and not reassigned holds no reference), but refuses, never throws, when that is
 * broken (VERIFIER_INVARIANT_VIOLATION).
 */
import type { CompiledModule, Instruction } from "../binary/CompiledModule.js"
import { Opcode } from "../binary/Opcode.js"
import type { SignatureToken } from "../binary/SignatureToken.js"
import { buildControlFlowGraph, Meter, runForward, TooComplex } from "./controlFlowGraph.js"
import { GraphInvariant } from "./referenceSafetyBorrowGraph.js"
import { AbstractState, Refused, VALUE } from "./referenceSafetyState.js"
import { fieldCount, MAX_PUSH_SIZE, popCount } from "./typeSafetyStackUsage.js"
import type { VerifyFailure } from "./VerifyFailure.js"

// The enum object held once: under some loaders each `Opcode.X` goes through a module-namespace
// getter, and the transfer functions switch on dozens of them per instruction.
const O = Opcode

// The reference's meter rates for this pass.
const STEP_BASE_COST = 10
const STEP_PER_LOCAL_COST = 20
const STEP_PER_GRAPH_ITEM_COST = 50
const JOIN_BASE_COST = 100
const JOIN_PER_LOCAL_COST = 10
const JOIN_PER_GRAPH_ITEM_COST = 50
const REF_PARAM_EDGE_COST = 100
const REF_PARAM_EDGE_COST_GROWTH = 1.5
const CALL_PER_ACQUIRES_COST = 100

/** VecPack and VecUnpack counts beyond what stack usage allows a block to push (`MAX_PUSH_SIZE`). */
const MAX_COUNT = BigInt(MAX_PUSH_SIZE)

/** Per token: undefined for a value, else whether it is a mutable reference. */
const referenceKind = (t: SignatureToken): boolean | undefined =>
  t._tag === "MutableReference" ? true : t._tag === "Reference" ? false : undefined

/** Refuses the module or script `m` (a script through `scriptAsModule`), or undefined if it passes. */
export const verifyReferenceSafety = (m: CompiledModule): VerifyFailure | undefined => {
  // The acquires of this module's own functions, by handle (the reference looks callees up by name
  // among this module's definitions; handles are distinct, so the handle is the same key).
  const acquiresByHandle = new Map<number, ReadonlyArray<number>>()
  for (const d of m.functionDefs) acquiresByHandle.set(d.function, d.acquiresGlobalResources)
  // One meter for the whole module: the reference bounds a module's work as it bounds a
  // function's (`max_per_mod_meter_units`, the same 80,000,000), so that a package of many
  // functions at the per-function bound cannot hold the chain's thread for their sum.
  const meter = new Meter()
  for (let f = 0; f < m.functionDefs.length; f++) {
    const def = m.functionDefs[f]!
    if (def.code === undefined || def.code.code.length === 0) continue
    let offset: number | undefined
    try {
      const handle = m.functionHandles[def.function]
      const params = handle === undefined ? undefined : m.signatures[handle.parameters]
      const returns = handle === undefined ? undefined : m.signatures[handle.returns]
      const locals = m.signatures[def.code.locals]
      if (params === undefined || returns === undefined || locals === undefined)
        throw new Refused("VERIFIER_INVARIANT_VIOLATION", "function without handle or signatures")
      verifyFunction(
        m,
        acquiresByHandle,
        meter,
        params,
        returns.length,
        params.length + locals.length,
        def.code.code,
        (o) => {
          offset = o
        }
      )
    } catch (e) {
      if (e instanceof Refused) return { status: e.status, message: e.message, functionDef: f, offset }
      if (e instanceof TooComplex) return { status: "CONSTRAINT_NOT_SATISFIED", message: e.message, functionDef: f }
      // A broken invariant (code type safety would refuse, or a fault of ours) refuses the module:
      // publishing must never crash on what a publisher sends.
      const message = e instanceof GraphInvariant ? e.message : `internal error: ${String(e)}`
      return { status: "VERIFIER_INVARIANT_VIOLATION", message, functionDef: f, offset }
    }
  }
  return undefined
}

const verifyFunction = (
  m: CompiledModule,
  acquiresByHandle: ReadonlyMap<number, ReadonlyArray<number>>,
  meter: Meter,
  params: ReadonlyArray<SignatureToken>,
  returnCount: number,
  localCount: number,
  code: ReadonlyArray<Instruction>,
  at: (offset: number) => void
): void => {
  const cfg = buildControlFlowGraph(code)
  const stack: number[] = []
  const pop = (): number => {
    const v = stack.pop()
    if (v === undefined) throw new Refused("VERIFIER_INVARIANT_VIOLATION", "pop from an empty stack")
    return v
  }
  const popValue = (s: AbstractState): void => s.release(pop())

  const call = (
    s: AbstractState,
    argCount: number,
    acquires: ReadonlyArray<number>,
    results: ReadonlyArray<SignatureToken>
  ) => {
    meter.add(CALL_PER_ACQUIRES_COST * acquires.length)
    const args = new Array<number>(argCount)
    for (let i = argCount - 1; i >= 0; i--) args[i] = pop()
    const { values, edges } = s.call(args, acquires, results.map(referenceKind))
    // The reference charges reference-to-result edges with a growing price per edge.
    let price = REF_PARAM_EDGE_COST
    for (let i = 0; i < edges; i++) {
      meter.add(price)
      price = Math.floor(price * REF_PARAM_EDGE_COST_GROWTH)
    }
    for (const v of values) stack.push(v)
  }

  const fieldMember = (ins: Instruction): number => {
    const i = (ins as { index: number }).index
    let member: number | undefined
    switch (ins.op) {
      case O.MutBorrowField:
      case O.ImmBorrowField:
        member = m.fieldHandles[i]?.field
        break
      case O.MutBorrowFieldGeneric:
      case O.ImmBorrowFieldGeneric:
        member = m.fieldHandles[m.fieldInstantiations[i]?.handle ?? -1]?.field
        break
      case O.MutBorrowVariantField:
      case O.ImmBorrowVariantField:
        member = m.variantFieldHandles[i]?.field
        break
      default:
        member = m.variantFieldHandles[m.variantFieldInstantiations[i]?.handle ?? -1]?.field
    }
    if (member === undefined) throw new Refused("VERIFIER_INVARIANT_VIOLATION", "no such field handle")
    return member
  }

  const structDefOf = (index: number, generic: boolean): number =>
    generic ? (m.structDefInstantiations[index]?.def ?? -1) : index

  const variantHandle = (index: number, generic: boolean) =>
    m.structVariantHandles[generic ? (m.structVariantInstantiations[index]?.handle ?? -1) : index]

  const step = (s: AbstractState, ins: Instruction): void => {
    switch (ins.op) {
      case O.Pop:
        s.release(pop())
        return
      case O.CopyLoc:
        stack.push(s.copyLoc(ins.index))
        return
      case O.MoveLoc:
        stack.push(s.moveLoc(ins.index))
        return
      case O.StLoc:
        s.stLoc(ins.index, pop())
        return
      case O.FreezeRef:
        stack.push(s.freezeRef(pop()))
        return
      case O.Eq:
      case O.Neq: {
        const a = pop()
        const b = pop()
        stack.push(s.comparison(a, b))
        return
      }
      case O.ReadRef:
        stack.push(s.readRef(pop()))
        return
      case O.WriteRef: {
        const r = pop()
        popValue(s)
        s.writeRef(r)
        return
      }
      case O.MutBorrowLoc:
      case O.ImmBorrowLoc:
        stack.push(s.borrowLoc(ins.op === O.MutBorrowLoc, ins.index))
        return
      case O.MutBorrowField:
      case O.MutBorrowFieldGeneric:
      case O.MutBorrowVariantField:
      case O.MutBorrowVariantFieldGeneric:
        stack.push(s.borrowField(true, pop(), fieldMember(ins)))
        return
      case O.ImmBorrowField:
      case O.ImmBorrowFieldGeneric:
      case O.ImmBorrowVariantField:
      case O.ImmBorrowVariantFieldGeneric:
        stack.push(s.borrowField(false, pop(), fieldMember(ins)))
        return
      case O.MutBorrowGlobal:
      case O.MutBorrowGlobalGeneric:
      case O.ImmBorrowGlobal:
      case O.ImmBorrowGlobalGeneric: {
        popValue(s)
        const mutable = ins.op === O.MutBorrowGlobal || ins.op === O.MutBorrowGlobalGeneric
        const generic = ins.op === O.MutBorrowGlobalGeneric || ins.op === O.ImmBorrowGlobalGeneric
        stack.push(s.borrowGlobal(mutable, structDefOf(ins.index, generic)))
        return
      }
      case O.MoveFrom:
      case O.MoveFromGeneric:
        popValue(s)
        stack.push(s.moveFrom(structDefOf(ins.index, ins.op === O.MoveFromGeneric)))
        return
      case O.MoveTo:
      case O.MoveToGeneric:
        popValue(s) // the resource
        popValue(s) // the &signer, released
        return
      case O.Call:
      case O.CallGeneric: {
        const h = ins.op === O.Call ? ins.index : m.functionInstantiations[ins.index]?.handle
        const handle = h === undefined ? undefined : m.functionHandles[h]
        const params = handle === undefined ? undefined : m.signatures[handle.parameters]
        const results = handle === undefined ? undefined : m.signatures[handle.returns]
        if (params === undefined || results === undefined)
          throw new Refused("VERIFIER_INVARIANT_VIOLATION", "no such function")
        call(s, params.length, acquiresByHandle.get(h!) ?? [], results)
        return
      }
      case O.CallClosure: {
        const t = m.signatures[ins.index]?.[0]
        if (t?._tag !== "Function")
          throw new Refused("VERIFIER_INVARIANT_VIOLATION", "CallClosure without a function type")
        popValue(s) // the closure
        call(s, t.args.length, [], t.results)
        return
      }
      case O.PackClosure:
      case O.PackClosureGeneric: {
        const h = ins.op === O.PackClosure ? ins.index : m.functionInstantiations[ins.index]?.handle
        const handle = h === undefined ? undefined : m.functionHandles[h]
        const params = handle === undefined ? undefined : m.signatures[handle.parameters]
        if (params === undefined) throw new Refused("VERIFIER_INVARIANT_VIOLATION", "no such function")
        // Type safety refused a mask naming a parameter past `params`.
        for (let i = popCount(ins.mask); i > 0; i--) popValue(s)
        stack.push(VALUE)
        return
      }
      case O.Ret: {
        const values = new Array<number>(returnCount)
        for (let i = returnCount - 1; i >= 0; i--) values[i] = pop()
        s.ret(values)
        return
      }
      case O.Branch:
      case O.Nop:
      case O.CastU8:
      case O.CastU16:
      case O.CastU32:
      case O.CastU64:
      case O.CastU128:
      case O.CastU256:
      case O.CastI8:
      case O.CastI16:
      case O.CastI32:
      case O.CastI64:
      case O.CastI128:
      case O.CastI256:
      case O.Not:
      case O.Negate:
      case O.Exists:
      case O.ExistsGeneric:
        // One value in, one value out (or none): the stack's shape is unchanged.
        return
      case O.BrTrue:
      case O.BrFalse:
      case O.Abort:
        popValue(s)
        return
      case O.AbortMsg:
        popValue(s)
        popValue(s)
        return
      case O.LdTrue:
      case O.LdFalse:
      case O.LdU8:
      case O.LdU16:
      case O.LdU32:
      case O.LdU64:
      case O.LdU128:
      case O.LdU256:
      case O.LdI8:
      case O.LdI16:
      case O.LdI32:
      case O.LdI64:
      case O.LdI128:
      case O.LdI256:
      case O.LdConst:
        // Constants are never references (type safety).
        stack.push(VALUE)
        return
      case O.Add:
      case O.Sub:
      case O.Mul:
      case O.Mod:
      case O.Div:
      case O.BitOr:
      case O.BitAnd:
      case O.Xor:
      case O.Shl:
      case O.Shr:
      case O.Or:
      case O.And:
      case O.Lt:
      case O.Gt:
      case O.Le:
      case O.Ge:
        popValue(s)
        popValue(s)
        stack.push(VALUE)
        return
      case O.Pack:
      case O.PackGeneric: {
        const d = structDefOf(ins.index, ins.op === O.PackGeneric)
        for (let i = fieldCount(m, d, undefined); i > 0; i--) popValue(s)
        stack.push(VALUE)
        return
      }
      case O.Unpack:
      case O.UnpackGeneric: {
        const d = structDefOf(ins.index, ins.op === O.UnpackGeneric)
        popValue(s)
        for (let i = fieldCount(m, d, undefined); i > 0; i--) stack.push(VALUE)
        return
      }
      case O.PackVariant:
      case O.PackVariantGeneric: {
        const vh = variantHandle(ins.index, ins.op === O.PackVariantGeneric)
        const n = vh === undefined ? 0 : fieldCount(m, vh.struct, vh.variant)
        for (let i = n; i > 0; i--) popValue(s)
        stack.push(VALUE)
        return
      }
      case O.UnpackVariant:
      case O.UnpackVariantGeneric: {
        const vh = variantHandle(ins.index, ins.op === O.UnpackVariantGeneric)
        const n = vh === undefined ? 0 : fieldCount(m, vh.struct, vh.variant)
        popValue(s)
        for (let i = n; i > 0; i--) stack.push(VALUE)
        return
      }
      case O.TestVariant:
      case O.TestVariantGeneric:
        // Testing a variant reads through the reference.
        stack.push(s.readRef(pop()))
        return
      case O.VecPack:
        if (ins.count > MAX_COUNT) throw new Refused("VERIFIER_INVARIANT_VIOLATION", "vector count beyond stack usage")
        for (let i = ins.count; i > 0n; i--) popValue(s)
        stack.push(VALUE)
        return
      case O.VecLen:
        s.vectorOp(pop(), false)
        stack.push(VALUE)
        return
      case O.VecImmBorrow:
      case O.VecMutBorrow: {
        popValue(s) // the index
        stack.push(s.vectorBorrow(pop(), ins.op === O.VecMutBorrow))
        return
      }
      case O.VecPushBack:
        popValue(s)
        s.vectorOp(pop(), true)
        return
      case O.VecPopBack:
        s.vectorOp(pop(), true)
        // Vector elements are never references (type safety).
        stack.push(VALUE)
        return
      case O.VecUnpack:
        popValue(s)
        // Stack usage has bounded what one block may push; checked again so as never to hang.
        if (ins.count > MAX_COUNT) throw new Refused("VERIFIER_INVARIANT_VIOLATION", "vector count beyond stack usage")
        for (let i = ins.count; i > 0n; i--) stack.push(VALUE)
        return
      case O.VecSwap:
        popValue(s)
        popValue(s)
        s.vectorOp(pop(), true)
        return
      default: {
        const unknown: never = ins
        throw new Refused("UNKNOWN_OPCODE", `unknown opcode ${(unknown as Instruction).op}`)
      }
    }
  }

  const initial = AbstractState.initial(localCount, params.map(referenceKind))
  runForward(cfg, initial, {
    copy: (s) => s.copy(),
    join: (into, incoming) => {
      meter.add(JOIN_BASE_COST + JOIN_PER_LOCAL_COST * localCount + JOIN_PER_GRAPH_ITEM_COST * into.graphSize())
      return into.join(incoming)
    },
    execute: (block, s) => {
      stack.length = 0
      const last = cfg.ends[block]!
      for (let offset = cfg.starts[block]!; offset <= last; offset++) {
        at(offset)
        meter.add(STEP_BASE_COST + STEP_PER_LOCAL_COST * localCount + STEP_PER_GRAPH_ITEM_COST * s.graphSize())
        step(s, code[offset]!)
      }
      if (stack.length !== 0) throw new Refused("VERIFIER_INVARIANT_VIOLATION", "a block ends with values on the stack")
      return s.canonical()
    }
  })
}
