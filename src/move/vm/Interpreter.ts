import type { CompiledCode } from "./compileCode.js"
import type { GasMeter } from "./GasMeter.js"
import type { LoadedFunction, LoadedModule, Loader } from "./Loader.js"
import { abstractSize, heapSize, packedSize, shellSize } from "./MemorySize.js"
import type { NativeContext } from "./natives/NativeContext.js"
import * as A from "./ops/arith.js"
import type { Session } from "./Session.js"
import { K, type StructKind, substitute, substituteAll, type Type } from "./Type.js"
import {
  Closure,
  copyValue,
  generalArray,
  generalArrayOfLength,
  Ref,
  StructValue,
  type Value,
  valueEquals
} from "./Value.js"
import { MoveAbort, VmError, vmError } from "./VmError.js"

/** Reference limits: call depth 1024 (`CALL_STACK_SIZE_LIMIT`), operand stack 1024 × 1024 slots. */
export const MAX_CALL_DEPTH = 1024
export const MAX_OPERAND_STACK = 1024 * 1024
/** Largest vector an instruction may build (gas runs out long before under any real schedule). */
export const MAX_VECTOR_LENGTH = 1 << 24
/** Default bound on branches + calls per run: about a second of the tightest loop. */
export const DEFAULT_MAX_BRANCHES = 20_000_000

/** Branches + calls between two looks at the clock (a look costs ~30 ns; a slice runs ≪ 1 ms). */
export const DEADLINE_SLICE = 65_536

const limitReached = (): never =>
  vmError("EXECUTION_LIMIT_REACHED", "execution limit reached (too many branches or calls)")

interface Frame {
  readonly fn: LoadedFunction
  readonly m: LoadedModule
  readonly code: CompiledCode
  readonly locals: Value[]
  readonly tyArgs: ReadonlyArray<Type>
  pc: number
}

const EMPTY: ReadonlyArray<Type> = []

export { abstractSize } from "./MemorySize.js"

const vecError = (what: string): never => vmError("VECTOR_OPERATION_ERROR", what)

const popcount = (mask: bigint): number => {
  let c = 0
  for (let x = mask; x > 0n; x >>= 1n) if (x & 1n) c++
  return c
}

/**
 * The interpreter: one loop over the compiled code of the current frame, one `switch` on the
 * opcode byte. Calls push a frame (no JS recursion, so Move call depth never grows the JS stack);
 * natives run inline. Arithmetic lives in `ops/arith.ts`; the operand kinds it needs come from the
 * compiled code.
 */
export class Interpreter {
  constructor(
    readonly loader: Loader,
    readonly session: Session,
    readonly gas: GasMeter,
    /** Read on first use (most calls never need it). */
    readonly chainId: () => number,
    /**
     * Most branches and calls one run may take: a wall-clock bound independent of the gas schedule
     * (a cheap schedule lets 2,000,000 gas units buy hundreds of millions of instructions).
     */
    readonly maxBranches: number = DEFAULT_MAX_BRANCHES,
    /** Wall-clock time (in `now()`'s scale) after which the run stops; checked once per slice. */
    readonly deadline: number = Number.POSITIVE_INFINITY,
    readonly now: () => number = performance.now.bind(performance)
  ) {
    this.ctx = { session, loader, gas, chainId, module: undefined!, caller: undefined }
    this.node = gas.params.sized.absValNode || 40
  }

  /** Memory-tracker units of one value node (the schedule's `misc.abs_val` node, 40 today). */
  private readonly node: number
  /** Branches + calls left beyond the current slice. */
  private branchesLeft = 0

  /** The next slice of the branch budget, after checking the total and the deadline. */
  private nextSlice(): number {
    if (this.branchesLeft <= 0) return limitReached()
    if (this.now() > this.deadline)
      return vmError("EXECUTION_LIMIT_REACHED", "execution limit reached (the view ran past its time limit)")
    const n = Math.min(DEADLINE_SLICE, this.branchesLeft)
    this.branchesLeft -= n
    return n - 1
  }

  /** One context per run, its `module` set before each native call (natives use it synchronously). */
  private readonly ctx: { -readonly [P in keyof NativeContext]: NativeContext[P] }

  private structAt(m: LoadedModule, tyArgs: ReadonlyArray<Type>, idx: number, generic: boolean): StructKind {
    const t = generic ? m.structInstantiation(idx) : m.structDefType(idx)
    return (t.g ? substitute(t, tyArgs) : t) as StructKind
  }

  /**
   * Sets up a call of `callee`, whose arguments are the top of `stack` (or `given`). Returns the new
   * frame, or undefined for a native that already pushed its results. A dispatching native's target
   * is called in its place.
   */
  private call(
    stack: Value[],
    frames: Frame[],
    callee: LoadedFunction,
    calleeTyArgs: ReadonlyArray<Type>,
    given: Value[] | undefined
  ): Frame | undefined {
    const gas = this.gas
    for (;;) {
      const nParams = callee.params.length
      if (callee.isNative) {
        const native = callee.native
        if (native === undefined)
          return vmError("MISSING_DEPENDENCY", `native function ${callee.fullName} is not available`)
        gas.charge(callee.nativeCost(gas.params))
        const args = given ?? stack.splice(stack.length - nParams, nParams)
        const ctx = this.ctx
        ctx.module = callee.module.id
        ctx.caller = frames.length > 0 ? frames[frames.length - 1]!.m.id : undefined
        const r = native(ctx, calleeTyArgs, args)
        if (Array.isArray(r)) {
          for (const v of r) {
            if (typeof v === "object") gas.useMemory(heapSize(v, this.node))
            stack.push(v)
          }
          return undefined
        }
        callee = r.fn
        calleeTyArgs = r.tyArgs
        given = generalArray(r.args)
        continue
      }
      if (frames.length >= MAX_CALL_DEPTH) return vmError("CALL_STACK_OVERFLOW", "call stack too deep")
      const nLocals = callee.localTypes.length
      gas.chargeCall(nParams, nLocals)
      const locals: Value[] = new Array(nParams + nLocals)
      if (given !== undefined) for (let i = 0; i < nParams; i++) locals[i] = given[i]
      else {
        const base = stack.length - nParams
        for (let i = 0; i < nParams; i++) locals[i] = stack[base + i]
        stack.length = base
      }
      return { fn: callee, m: callee.module, code: callee.code, locals, tyArgs: calleeTyArgs, pc: 0 }
    }
  }

  /**
   * Runs `fn` with closed type arguments and argument values; returns its results, or the
   * `MoveAbort` when Move code aborted (`abort` / `AbortMsg`). The abort is answered, not thrown:
   * every JS throw makes V8 work out where it happened (a summary of the optimized frame, this
   * loop's being large), and admission aborts the prologue of every transaction queued behind its
   * sender's on-chain sequence number (SEQUENCE_NUMBER_TOO_NEW) — those throws were ~10 % of the
   * admission thread's time under load. A native's abort and every `VmError` still throw.
   */
  execute(entry: LoadedFunction, tyArgs: ReadonlyArray<Type>, args: ReadonlyArray<Value>): Value[] | MoveAbort {
    // The loop sees its arguments always in one kind of array, however the caller made them
    // (Value.ts, generalArray): a new kind would throw its compiled code away.
    return this.run(entry, tyArgs, generalArray(args))
  }

  private run(entry: LoadedFunction, tyArgs: ReadonlyArray<Type>, args: Value[]): Value[] | MoveAbort {
    const stack: Value[] = []
    const frames: Frame[] = []
    const gas = this.gas
    const session = this.session
    const cost = gas.instr
    const sized = gas.params.sized
    const node = this.node

    // Arguments count against the quota like any value (their frame releases them on return).
    for (const a of args) if (typeof a === "object") gas.useMemory(heapSize(a, node))
    let f: Frame | undefined
    f = this.call(stack, frames, entry, tyArgs, args)
    if (f === undefined) return stack

    let code = f.code
    let op = code.op
    let arg = code.arg
    let locals = f.locals
    let m = f.m
    let frameTyArgs = f.tyArgs
    let pc = 0
    // The clock is first read after a full slice: short views (nearly all) never look at it, so a
    // cold first run (module loading) on a busy machine is not cut short.
    let budget = Math.min(DEADLINE_SLICE, this.maxBranches)
    this.branchesLeft = this.maxBranches - budget

    try {
      for (;;) {
        const o = op[pc]!
        if ((gas.balance -= cost[o]!) < 0) gas.outOfGas(cost[o]!)
        switch (o) {
          case 1 /* Pop */:
            {
              const v = stack.pop()
              if (typeof v === "object") gas.releaseMemory(heapSize(v, node))
              pc++
              break
            }
          case 2 /* Ret */:
            {
              for (const v of locals) if (typeof v === "object") gas.releaseMemory(heapSize(v, node))
              const caller = frames.pop()
              if (caller === undefined) return stack
              f = caller
              code = caller.code
              op = code.op
              arg = code.arg
              locals = caller.locals
              m = caller.m
              frameTyArgs = caller.tyArgs
              pc = caller.pc
              break
            }
          case 3 /* BrTrue */:
            if (--budget < 0) budget = this.nextSlice()
            pc = stack.pop() ? arg[pc]! : pc + 1
            break
          case 4 /* BrFalse */:
            if (--budget < 0) budget = this.nextSlice()
            pc = stack.pop() ? pc + 1 : arg[pc]!
            break
          case 5 /* Branch */:
            if (--budget < 0) budget = this.nextSlice()
            pc = arg[pc]!
            break
          case 49 /* LdU8 */:
          case 72 /* LdU16 */:
          case 73 /* LdU32 */:
          case 91 /* LdI8 */:
          case 92 /* LdI16 */:
          case 93 /* LdI32 */:
            stack.push(arg[pc]!)
            pc++
            break
          case 6 /* LdU64 */:
          case 50 /* LdU128 */:
          case 74 /* LdU256 */:
          case 94 /* LdI64 */:
          case 95 /* LdI128 */:
          case 96 /* LdI256 */:
            stack.push(code.big[pc]!)
            pc++
            break
          case 7 /* LdConst */:
            {
              gas.charge(sized.ldConstPerByte * m.cm.constantPool[arg[pc]!]!.data.length)
              const v = copyValue(m.constant(arg[pc]!))
              if (typeof v === "object") gas.useMemory(heapSize(v, node))
              stack.push(v)
              pc++
              break
            }
          case 8 /* LdTrue */:
            stack.push(true)
            pc++
            break
          case 9 /* LdFalse */:
            stack.push(false)
            pc++
            break
          case 10 /* CopyLoc */:
            {
              const v = locals[arg[pc]!]
              if (v === undefined) vmError("UNREACHABLE", "copy of an unavailable local")
              if (typeof v === "object") {
                // One walk for both: the schedule's node size is the tracker's (40) when metered.
                const size = abstractSize(v, node)
                gas.charge(sized.copyLocPerUnit * size)
                if (!(v instanceof Uint8Array) && !(v instanceof Ref)) gas.useMemory(size)
              } else gas.charge(sized.copyLocPerUnit * sized.absValNode)
              stack.push(copyValue(v))
              pc++
              break
            }
          case 11 /* MoveLoc */:
            {
              const i = arg[pc]!
              const v = locals[i]
              if (v === undefined) vmError("UNREACHABLE", "move of an unavailable local")
              locals[i] = undefined
              stack.push(v)
              pc++
              break
            }
          case 12 /* StLoc */:
            {
              const i = arg[pc]!
              const old = locals[i]
              if (typeof old === "object") gas.releaseMemory(heapSize(old, node))
              locals[i] = stack.pop()
              pc++
              break
            }
          case 13 /* MutBorrowLoc */:
          case 14 /* ImmBorrowLoc */:
            stack.push(new Ref(locals, arg[pc]!, undefined))
            pc++
            break
          case 15 /* MutBorrowField */:
          case 16 /* ImmBorrowField */:
            {
              const r = stack.pop() as Ref
              const s = r.arr[r.idx] as StructValue
              stack.push(new Ref(s.fields, m.cm.fieldHandles[arg[pc]!]!.field, r.root))
              pc++
              break
            }
          case 54 /* MutBorrowFieldGeneric */:
          case 55 /* ImmBorrowFieldGeneric */:
            {
              const r = stack.pop() as Ref
              const s = r.arr[r.idx] as StructValue
              const fh = m.cm.fieldHandles[m.cm.fieldInstantiations[arg[pc]!]!.handle]!
              stack.push(new Ref(s.fields, fh.field, r.root))
              pc++
              break
            }
          case 78 /* ImmBorrowVariantField */:
          case 79 /* MutBorrowVariantField */:
          case 80 /* ImmBorrowVariantFieldGeneric */:
          case 81 /* MutBorrowVariantFieldGeneric */:
            {
              const r = stack.pop() as Ref
              const s = r.arr[r.idx] as StructValue
              const h =
                o === 78 /* ImmBorrowVariantField */ || o === 79 /* MutBorrowVariantField */
                  ? m.cm.variantFieldHandles[arg[pc]!]!
                  : m.cm.variantFieldHandles[m.cm.variantFieldInstantiations[arg[pc]!]!.handle]!
              if (!h.variants.includes(s.tag)) vmError("STRUCT_VARIANT_MISMATCH", "field borrow of another variant")
              stack.push(new Ref(s.fields, h.field, r.root))
              pc++
              break
            }
          case 17 /* Call */:
          case 56 /* CallGeneric */:
            {
              if (--budget < 0) budget = this.nextSlice()
              let callee: LoadedFunction
              let tys: ReadonlyArray<Type> = EMPTY
              if (o === 17 /* Call */) callee = m.functionHandle(arg[pc]!)
              else {
                const t = m.functionInstantiation(arg[pc]!)
                callee = t.fn
                tys = substituteAll(t.tyArgs, frameTyArgs)
                gas.charge(gas.params.callGenericPerTyArg * tys.length)
              }
              pc++
              const nf = this.call(stack, frames, callee, tys, undefined)
              if (nf !== undefined) {
                f!.pc = pc
                frames.push(f!)
                f = nf
                code = nf.code
                op = code.op
                arg = code.arg
                locals = nf.locals
                m = nf.m
                frameTyArgs = nf.tyArgs
                pc = 0
              }
              if (stack.length > MAX_OPERAND_STACK) vmError("EXECUTION_STACK_OVERFLOW", "operand stack overflow")
              break
            }
          case 18 /* Pack */:
          case 57 /* PackGeneric */:
            {
              const n = m.fieldCount(o === 18 /* Pack */ ? arg[pc]! : m.cm.structDefInstantiations[arg[pc]!]!.def, -1)
              gas.charge(sized.packPerField * n)
              const fields = stack.splice(stack.length - n, n)
              gas.useMemory(shellSize(fields, node, false))
              stack.push(new StructValue(-1, fields))
              pc++
              break
            }
          case 19 /* Unpack */:
          case 58 /* UnpackGeneric */:
            {
              const s = stack.pop() as StructValue
              gas.releaseMemory(shellSize(s.fields, node, false))
              for (const v of s.fields) stack.push(v)
              pc++
              break
            }
          case 82 /* PackVariant */:
          case 83 /* PackVariantGeneric */:
            {
              const h =
                o === 82 /* PackVariant */
                  ? m.cm.structVariantHandles[arg[pc]!]!
                  : m.cm.structVariantHandles[m.cm.structVariantInstantiations[arg[pc]!]!.handle]!
              const n = m.fieldCount(h.struct, h.variant)
              const fields = stack.splice(stack.length - n, n)
              gas.useMemory(shellSize(fields, node, false))
              stack.push(new StructValue(h.variant, fields))
              pc++
              break
            }
          case 84 /* UnpackVariant */:
          case 85 /* UnpackVariantGeneric */:
            {
              const h =
                o === 84 /* UnpackVariant */
                  ? m.cm.structVariantHandles[arg[pc]!]!
                  : m.cm.structVariantHandles[m.cm.structVariantInstantiations[arg[pc]!]!.handle]!
              const s = stack.pop() as StructValue
              if (s.tag !== h.variant) vmError("STRUCT_VARIANT_MISMATCH", "unpack of another variant")
              gas.releaseMemory(shellSize(s.fields, node, false))
              for (const v of s.fields) stack.push(v)
              pc++
              break
            }
          case 86 /* TestVariant */:
          case 87 /* TestVariantGeneric */:
            {
              const h =
                o === 86 /* TestVariant */
                  ? m.cm.structVariantHandles[arg[pc]!]!
                  : m.cm.structVariantHandles[m.cm.structVariantInstantiations[arg[pc]!]!.handle]!
              const r = stack.pop() as Ref
              stack.push((r.arr[r.idx] as StructValue).tag === h.variant)
              pc++
              break
            }
          case 20 /* ReadRef */:
            {
              const r = stack.pop() as Ref
              const v = r.arr[r.idx]
              if (typeof v === "object") {
                // One walk for both: the schedule's node size is the tracker's (40) when metered.
                const size = abstractSize(v, node)
                gas.charge(sized.readRefPerUnit * size)
                if (!(v instanceof Uint8Array) && !(v instanceof Ref)) gas.useMemory(size)
              } else gas.charge(sized.readRefPerUnit * sized.absValNode)
              stack.push(copyValue(v))
              pc++
              break
            }
          case 21 /* WriteRef */:
            {
              const r = stack.pop() as Ref
              const old = r.arr[r.idx]
              if (typeof old === "object") gas.releaseMemory(heapSize(old, node))
              r.arr[r.idx] = stack.pop()
              if (r.root !== undefined) r.root.dirty = true
              pc++
              break
            }
          case 46 /* FreezeRef */:
          case 40 /* Nop */:
            pc++
            break
          case 22 /* Add */:
            {
              const b = stack.pop()
              stack.push(A.add(code.kind[pc]!, stack.pop(), b))
              pc++
              break
            }
          case 23 /* Sub */:
            {
              const b = stack.pop()
              stack.push(A.sub(code.kind[pc]!, stack.pop(), b))
              pc++
              break
            }
          case 24 /* Mul */:
            {
              const b = stack.pop()
              stack.push(A.mul(code.kind[pc]!, stack.pop(), b))
              pc++
              break
            }
          case 26 /* Div */:
            {
              const b = stack.pop()
              stack.push(A.div(code.kind[pc]!, stack.pop(), b))
              pc++
              break
            }
          case 25 /* Mod */:
            {
              const b = stack.pop()
              stack.push(A.mod(stack.pop(), b))
              pc++
              break
            }
          case 27 /* BitOr */:
            {
              const b = stack.pop()
              stack.push(A.bitOr(code.kind[pc]!, stack.pop(), b))
              pc++
              break
            }
          case 28 /* BitAnd */:
            {
              const b = stack.pop()
              stack.push(A.bitAnd(code.kind[pc]!, stack.pop(), b))
              pc++
              break
            }
          case 29 /* Xor */:
            {
              const b = stack.pop()
              stack.push(A.bitXor(code.kind[pc]!, stack.pop(), b))
              pc++
              break
            }
          case 47 /* Shl */:
            {
              const n = stack.pop() as number
              stack.push(A.shl(code.kind[pc]!, stack.pop(), n))
              pc++
              break
            }
          case 48 /* Shr */:
            {
              const n = stack.pop() as number
              stack.push(A.shr(code.kind[pc]!, stack.pop(), n))
              pc++
              break
            }
          case 103 /* Negate */:
            stack.push(A.negate(code.kind[pc]!, stack.pop()))
            pc++
            break
          case 30 /* Or */:
            {
              const b = stack.pop()
              stack.push((stack.pop() as boolean) || (b as boolean))
              pc++
              break
            }
          case 31 /* And */:
            {
              const b = stack.pop()
              stack.push((stack.pop() as boolean) && (b as boolean))
              pc++
              break
            }
          case 32 /* Not */:
            stack.push(!stack.pop())
            pc++
            break
          case 33 /* Eq */:
            {
              const b = stack.pop()
              const a = stack.pop()
              if (typeof b === "object") {
                gas.charge(sized.eqPerUnit * abstractSize(b, sized.absValNode))
                gas.releaseMemory(heapSize(b, node) + heapSize(a, node))
              } else gas.charge(sized.eqPerUnit * sized.absValNode)
              stack.push(valueEquals(a, b))
              pc++
              break
            }
          case 34 /* Neq */:
            {
              const b = stack.pop()
              const a = stack.pop()
              if (typeof b === "object") {
                gas.charge(sized.eqPerUnit * abstractSize(b, sized.absValNode))
                gas.releaseMemory(heapSize(b, node) + heapSize(a, node))
              } else gas.charge(sized.eqPerUnit * sized.absValNode)
              stack.push(!valueEquals(a, b))
              pc++
              break
            }
          case 35 /* Lt */:
            {
              const b = stack.pop() as number
              stack.push((stack.pop() as number) < b)
              pc++
              break
            }
          case 36 /* Gt */:
            {
              const b = stack.pop() as number
              stack.push((stack.pop() as number) > b)
              pc++
              break
            }
          case 37 /* Le */:
            {
              const b = stack.pop() as number
              stack.push((stack.pop() as number) <= b)
              pc++
              break
            }
          case 38 /* Ge */:
            {
              const b = stack.pop() as number
              stack.push((stack.pop() as number) >= b)
              pc++
              break
            }
          case 39 /* Abort */:
            return new MoveAbort(stack.pop() as bigint, m.id)
          case 104 /* AbortMsg */:
            {
              const msg = stack.pop() as number[]
              const codeValue = stack.pop() as bigint
              gas.charge(sized.abortMsgPerByte * msg.length)
              let text: string
              try {
                text = new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(msg))
              } catch {
                text = "<invalid UTF-8 abort message>"
              }
              return new MoveAbort(codeValue, m.id, text)
            }
          case 41 /* Exists */:
          case 59 /* ExistsGeneric */:
            {
              const t = this.structAt(m, frameTyArgs, arg[pc]!, o === 59 /* ExistsGeneric */)
              const addr = stack.pop() as Uint8Array
              stack.push(session.resource(addr, t).box[0] !== undefined)
              pc++
              break
            }
          case 42 /* MutBorrowGlobal */:
          case 43 /* ImmBorrowGlobal */:
          case 60 /* MutBorrowGlobalGeneric */:
          case 61 /* ImmBorrowGlobalGeneric */:
            {
              const t = this.structAt(
                m,
                frameTyArgs,
                arg[pc]!,
                o === 60 /* MutBorrowGlobalGeneric */ || o === 61 /* ImmBorrowGlobalGeneric */
              )
              const addr = stack.pop() as Uint8Array
              const slot = session.resource(addr, t)
              if (slot.box[0] === undefined) vmError("MISSING_DATA", `failed to borrow global resource ${t.def.name}`)
              stack.push(new Ref(slot.box, 0, slot))
              pc++
              break
            }
          case 44 /* MoveFrom */:
          case 62 /* MoveFromGeneric */:
            {
              const t = this.structAt(m, frameTyArgs, arg[pc]!, o === 62 /* MoveFromGeneric */)
              const addr = stack.pop() as Uint8Array
              const slot = session.resource(addr, t)
              const v = slot.box[0]
              if (v === undefined) vmError("MISSING_DATA", `failed to move global resource ${t.def.name}`)
              slot.box[0] = undefined
              stack.push(v)
              pc++
              break
            }
          case 45 /* MoveTo */:
          case 63 /* MoveToGeneric */:
            {
              const t = this.structAt(m, frameTyArgs, arg[pc]!, o === 63 /* MoveToGeneric */)
              const v = stack.pop()
              const signerRef = stack.pop() as Ref
              const addr = (signerRef.arr[signerRef.idx] as StructValue).fields[0] as Uint8Array
              const slot = session.resource(addr, t)
              if (slot.box[0] !== undefined) vmError("RESOURCE_ALREADY_EXISTS", `resource ${t.def.name} already exists`)
              slot.box[0] = v
              slot.dirty = true
              pc++
              break
            }
          case 51 /* CastU8 */:
            stack.push(A.castTo(K.U8, stack.pop()))
            pc++
            break
          case 75 /* CastU16 */:
            stack.push(A.castTo(K.U16, stack.pop()))
            pc++
            break
          case 76 /* CastU32 */:
            stack.push(A.castTo(K.U32, stack.pop()))
            pc++
            break
          case 52 /* CastU64 */:
            stack.push(A.castTo(K.U64, stack.pop()))
            pc++
            break
          case 53 /* CastU128 */:
            stack.push(A.castTo(K.U128, stack.pop()))
            pc++
            break
          case 77 /* CastU256 */:
            stack.push(A.castTo(K.U256, stack.pop()))
            pc++
            break
          case 97 /* CastI8 */:
            stack.push(A.castTo(K.I8, stack.pop()))
            pc++
            break
          case 98 /* CastI16 */:
            stack.push(A.castTo(K.I16, stack.pop()))
            pc++
            break
          case 99 /* CastI32 */:
            stack.push(A.castTo(K.I32, stack.pop()))
            pc++
            break
          case 100 /* CastI64 */:
            stack.push(A.castTo(K.I64, stack.pop()))
            pc++
            break
          case 101 /* CastI128 */:
            stack.push(A.castTo(K.I128, stack.pop()))
            pc++
            break
          case 102 /* CastI256 */:
            stack.push(A.castTo(K.I256, stack.pop()))
            pc++
            break
          case 64 /* VecPack */:
            {
              const n = code.big[pc]!
              if (n > BigInt(stack.length)) vmError("UNREACHABLE", "vec_pack beyond the operand stack")
              const k = Number(n)
              gas.charge(sized.vecPackPerElem * k)
              const elems = stack.splice(stack.length - k, k)
              gas.useMemory(shellSize(elems, node, true))
              stack.push(elems)
              pc++
              break
            }
          case 65 /* VecLen */:
            {
              const r = stack.pop() as Ref
              stack.push(BigInt((r.arr[r.idx] as Value[]).length))
              pc++
              break
            }
          case 66 /* VecImmBorrow */:
          case 67 /* VecMutBorrow */:
            {
              const i = stack.pop() as bigint
              const r = stack.pop() as Ref
              const v = r.arr[r.idx] as Value[]
              if (i >= BigInt(v.length)) vecError("index out of bounds")
              stack.push(new Ref(v, Number(i), r.root))
              pc++
              break
            }
          case 68 /* VecPushBack */:
            {
              const x = stack.pop()
              const r = stack.pop() as Ref
              const v = r.arr[r.idx] as Value[]
              if (v.length >= MAX_VECTOR_LENGTH) vecError("vector too long")
              gas.useMemory(packedSize(x))
              v.push(x)
              if (r.root !== undefined) r.root.dirty = true
              pc++
              break
            }
          case 69 /* VecPopBack */:
            {
              const r = stack.pop() as Ref
              const v = r.arr[r.idx] as Value[]
              if (v.length === 0) vecError("pop from an empty vector")
              const x = v.pop()
              if (r.root !== undefined) r.root.dirty = true
              gas.releaseMemory(packedSize(x))
              stack.push(x)
              pc++
              break
            }
          case 70 /* VecUnpack */:
            {
              const v = stack.pop() as Value[]
              gas.charge(sized.vecUnpackPerElem * v.length)
              if (BigInt(v.length) !== code.big[pc]!) vecError("vector length mismatch on unpack")
              gas.releaseMemory(shellSize(v, node, true))
              for (const x of v) stack.push(x)
              pc++
              break
            }
          case 71 /* VecSwap */:
            {
              const j = stack.pop() as bigint
              const i = stack.pop() as bigint
              const r = stack.pop() as Ref
              const v = r.arr[r.idx] as Value[]
              const n = BigInt(v.length)
              if (i >= n || j >= n) vecError("index out of bounds")
              const a = Number(i)
              const b = Number(j)
              const t = v[a]
              v[a] = v[b]
              v[b] = t
              if (r.root !== undefined) r.root.dirty = true
              pc++
              break
            }
          case 88 /* PackClosure */:
          case 89 /* PackClosureGeneric */:
            {
              let fn: LoadedFunction
              let tys: ReadonlyArray<Type> = EMPTY
              if (o === 88 /* PackClosure */) fn = m.functionHandle(arg[pc]!)
              else {
                const t = m.functionInstantiation(arg[pc]!)
                fn = t.fn
                tys = substituteAll(t.tyArgs, frameTyArgs)
              }
              const mask = code.big[pc]!
              const n = popcount(mask)
              stack.push(new Closure(fn, tys, mask, stack.splice(stack.length - n, n)))
              pc++
              break
            }
          case 90 /* CallClosure */:
            {
              const c = stack.pop() as Closure
              const fn = c.fn as LoadedFunction
              const nParams = fn.params.length
              const provided = stack.splice(stack.length - (nParams - c.captured.length), nParams - c.captured.length)
              // Made in the one kind of array the loop's calls see (Value.ts, generalArrayOfLength).
              const all = generalArrayOfLength(nParams)
              let ci = 0
              let pi = 0
              for (let i = 0; i < nParams; i++) all[i] = (c.mask >> BigInt(i)) & 1n ? c.captured[ci++] : provided[pi++]
              pc++
              const nf = this.call(stack, frames, fn, c.tyArgs, all)
              if (nf !== undefined) {
                f!.pc = pc
                frames.push(f!)
                f = nf
                code = nf.code
                op = code.op
                arg = code.arg
                locals = nf.locals
                m = nf.m
                frameTyArgs = nf.tyArgs
                pc = 0
              }
              break
            }
          case 0 /* RAN_PAST_END (a literal: the switch stays a jump table) */:
            vmError("PC_OVERFLOW", "the code ran past its last instruction")
            break
          default:
            vmError("UNREACHABLE", `unknown opcode ${o}`)
        }
      }
    } catch (e) {
      if (e instanceof VmError && e.location === undefined)
        throw new VmError(e.status, e.detail, m.id, {
          functionIndex: f!.fn.index,
          functionName: f!.fn.name,
          codeOffset: pc
        })
      if (e instanceof RangeError && !(e instanceof VmError))
        throw new VmError("EXECUTION_STACK_OVERFLOW", `host limit: ${e.message}`, m.id)
      throw e
    }
  }
}
