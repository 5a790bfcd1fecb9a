/**
 * Stack usage (the reference's `stack_usage_verifier`): the code is cut into basic blocks, and in
 * each block the operand stack, counted from empty at the block's first instruction, never has fewer
 * values than the next instruction pops and is empty again after the last one (Ret pops exactly the
 * return values, Abort its code, AbortMsg its code and message, a conditional branch its condition).
 * It is what lets the type-safety pass check every block from an empty abstract stack: whatever
 * flows between blocks flows through locals, whose types are declared.
 *
 * Also bounded, as the production verifier config does: at most 1,024 values on the stack and at
 * most 10,000 values pushed by one block.
 */
import type { CompiledModule, FunctionHandle, Instruction } from "../binary/CompiledModule.js"
import { Opcode } from "../binary/Opcode.js"
import type { VerifyFailure } from "./VerifyFailure.js"

/**
 * `Opcode` held under a local name: read through the module's binding (vitest's transform), each
 * `Opcode.X` of the switches cost a lookup; the framework's type safety took 297 ms, now 31.
 */
const O = Opcode

/** `max_value_stack_size` of the production verifier config. */
export const MAX_VALUE_STACK_SIZE = 1024
/** `max_push_size` of the production verifier config. */
export const MAX_PUSH_SIZE = 10_000

/** Ends a basic block: the next instruction (if any) starts one. */
export const endsBlock = (op: Opcode): boolean =>
  op === O.Branch || op === O.BrTrue || op === O.BrFalse || op === O.Ret || op === O.Abort || op === O.AbortMsg

/**
 * Block leaders, one flag per instruction: offset 0, every branch target and every instruction after
 * a branch, Ret, Abort or AbortMsg (the reference's `VMControlFlowGraph` block starts).
 */
export const blockLeaders = (code: ReadonlyArray<Instruction>): Uint8Array => {
  const leaders = new Uint8Array(code.length)
  if (code.length > 0) leaders[0] = 1
  for (let i = 0; i < code.length; i++) {
    const ins = code[i]!
    if (ins.op === O.Branch || ins.op === O.BrTrue || ins.op === O.BrFalse) {
      const target = (ins as { offset: number }).offset
      if (target < code.length) leaders[target] = 1
    }
    if (endsBlock(ins.op) && i + 1 < code.length) leaders[i + 1] = 1
  }
  return leaders
}

/** Counts beyond any limit are clamped: they fail the same checks without bigint arithmetic. */
const clampCount = (n: bigint): number => (n > 1_000_000n ? 1_000_000 : Number(n))

/** The captured parameters of a closure mask (its set bits). */
export const popCount = (mask: bigint): number => {
  let n = 0
  for (let b = mask; b > 0n; b >>= 1n) if (b & 1n) n++
  return n
}

/** The fields of struct definition `def` (`variant` undefined) or of one of its variants; 0 for none. */
export const fieldCount = (m: CompiledModule, def: number, variant: number | undefined): number => {
  const fi = m.structDefs[def]?.fieldInformation
  if (fi === undefined) return 0
  if (variant === undefined) return fi._tag === "Declared" ? fi.fields.length : 0
  return fi._tag === "DeclaredVariants" ? (fi.variants[variant]?.fields.length ?? 0) : 0
}

/**
 * How many values `ins` pops and pushes, written into `out` ([pops, pushes]) so that the hot loop
 * allocates nothing.
 */
const effect = (m: CompiledModule, returns: number, ins: Instruction, out: [number, number]): void => {
  let pops = 0
  let pushes = 0
  switch (ins.op) {
    case O.Pop:
    case O.BrTrue:
    case O.BrFalse:
    case O.StLoc:
    case O.Abort:
      pops = 1
      break
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
    case O.LdTrue:
    case O.LdFalse:
    case O.LdConst:
    case O.CopyLoc:
    case O.MoveLoc:
    case O.MutBorrowLoc:
    case O.ImmBorrowLoc:
      pushes = 1
      break
    case O.Not:
    case O.Negate:
    case O.FreezeRef:
    case O.ReadRef:
    case O.Exists:
    case O.ExistsGeneric:
    case O.MutBorrowGlobal:
    case O.MutBorrowGlobalGeneric:
    case O.ImmBorrowGlobal:
    case O.ImmBorrowGlobalGeneric:
    case O.MutBorrowField:
    case O.MutBorrowFieldGeneric:
    case O.ImmBorrowField:
    case O.ImmBorrowFieldGeneric:
    case O.MutBorrowVariantField:
    case O.MutBorrowVariantFieldGeneric:
    case O.ImmBorrowVariantField:
    case O.ImmBorrowVariantFieldGeneric:
    case O.TestVariant:
    case O.TestVariantGeneric:
    case O.MoveFrom:
    case O.MoveFromGeneric:
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
    case O.VecLen:
    case O.VecPopBack:
      pops = 1
      pushes = 1
      break
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
    case O.Eq:
    case O.Neq:
    case O.Lt:
    case O.Gt:
    case O.Le:
    case O.Ge:
    case O.VecImmBorrow:
    case O.VecMutBorrow:
      pops = 2
      pushes = 1
      break
    case O.VecPack:
      pops = clampCount(ins.count)
      pushes = 1
      break
    case O.VecUnpack:
      pops = 1
      pushes = clampCount(ins.count)
      break
    case O.MoveTo:
    case O.MoveToGeneric:
    case O.WriteRef:
    case O.VecPushBack:
    case O.AbortMsg:
      pops = 2
      break
    case O.VecSwap:
      pops = 3
      break
    case O.Branch:
    case O.Nop:
      break
    case O.Ret:
      pops = returns
      break
    case O.Call:
    case O.CallGeneric: {
      const h = m.functionHandles[ins.op === O.Call ? ins.index : m.functionInstantiations[ins.index]!.handle]!
      pops = m.signatures[h.parameters]!.length
      pushes = m.signatures[h.returns]!.length
      break
    }
    case O.CallClosure: {
      // Not a function type: the type-safety pass refuses it; here it moves nothing.
      const t = m.signatures[ins.index]![0]
      if (t?._tag === "Function") {
        pops = 1 + t.args.length
        pushes = t.results.length
      }
      break
    }
    case O.PackClosure:
    case O.PackClosureGeneric:
      pops = popCount(ins.mask)
      pushes = 1
      break
    case O.Pack:
      pops = fieldCount(m, ins.index, undefined)
      pushes = 1
      break
    case O.PackGeneric:
      pops = fieldCount(m, m.structDefInstantiations[ins.index]!.def, undefined)
      pushes = 1
      break
    case O.Unpack:
      pops = 1
      pushes = fieldCount(m, ins.index, undefined)
      break
    case O.UnpackGeneric:
      pops = 1
      pushes = fieldCount(m, m.structDefInstantiations[ins.index]!.def, undefined)
      break
    case O.PackVariant:
    case O.UnpackVariant:
    case O.PackVariantGeneric:
    case O.UnpackVariantGeneric: {
      const generic = ins.op === O.PackVariantGeneric || ins.op === O.UnpackVariantGeneric
      const h = m.structVariantHandles[generic ? m.structVariantInstantiations[ins.index]!.handle : ins.index]!
      const n = fieldCount(m, h.struct, h.variant)
      const packing = ins.op === O.PackVariant || ins.op === O.PackVariantGeneric
      pops = packing ? n : 1
      pushes = packing ? 1 : n
      break
    }
  }
  out[0] = pops
  out[1] = pushes
}

/**
 * Checks stack usage of one code unit of function definition `functionDef` (handle `handle`);
 * `leaders` from `blockLeaders`. Failures are reported at the offset of the block's first
 * instruction, as the reference does.
 */
export const verifyStackUsage = (
  m: CompiledModule,
  handle: FunctionHandle,
  code: ReadonlyArray<Instruction>,
  leaders: Uint8Array,
  functionDef: number
): VerifyFailure | undefined => {
  const returns = m.signatures[handle.returns]!.length
  const io: [number, number] = [0, 0]
  let height = 0
  let pushed = 0
  let blockStart = 0
  const failure = (status: VerifyFailure["status"], message: string): VerifyFailure => ({
    status,
    message,
    functionDef,
    offset: blockStart
  })
  for (let i = 0; i < code.length; i++) {
    if (leaders[i] === 1) {
      if (height !== 0)
        return failure("POSITIVE_STACK_SIZE_AT_BLOCK_END", `block at ${blockStart} leaves ${height} values`)
      blockStart = i
      pushed = 0
    }
    effect(m, returns, code[i]!, io)
    const [pops, pushes] = io
    pushed += pushes
    if (pushed > MAX_PUSH_SIZE) return failure("VALUE_STACK_PUSH_OVERFLOW", `block at ${blockStart} pushes too much`)
    if (height < pops)
      return failure("NEGATIVE_STACK_SIZE_WITHIN_BLOCK", `instruction ${i} pops ${pops} of ${height} values`)
    height = height - pops + pushes
    if (height > MAX_VALUE_STACK_SIZE)
      return failure("VALUE_STACK_OVERFLOW", `block at ${blockStart} overflows the stack`)
  }
  if (height !== 0) return failure("POSITIVE_STACK_SIZE_AT_BLOCK_END", `block at ${blockStart} leaves ${height} values`)
  return undefined
}
