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

/** `max_value_stack_size` of the production verifier config. */
export const MAX_VALUE_STACK_SIZE = 1024
/** `max_push_size` of the production verifier config. */
export const MAX_PUSH_SIZE = 10_000

/** Ends a basic block: the next instruction (if any) starts one. */
export const endsBlock = (op: Opcode): boolean =>
  op === Opcode.Branch ||
  op === Opcode.BrTrue ||
  op === Opcode.BrFalse ||
  op === Opcode.Ret ||
  op === Opcode.Abort ||
  op === Opcode.AbortMsg

/**
 * Block leaders, one flag per instruction: offset 0, every branch target and every instruction after
 * a branch, Ret, Abort or AbortMsg (the reference's `VMControlFlowGraph` block starts).
 */
export const blockLeaders = (code: ReadonlyArray<Instruction>): Uint8Array => {
  const leaders = new Uint8Array(code.length)
  if (code.length > 0) leaders[0] = 1
  for (let i = 0; i < code.length; i++) {
    const ins = code[i]!
    if (ins.op === Opcode.Branch || ins.op === Opcode.BrTrue || ins.op === Opcode.BrFalse) {
      const target = (ins as { offset: number }).offset
      if (target < code.length) leaders[target] = 1
    }
    if (endsBlock(ins.op) && i + 1 < code.length) leaders[i + 1] = 1
  }
  return leaders
}

/** Counts beyond any limit are clamped: they fail the same checks without bigint arithmetic. */
const clampCount = (n: bigint): number => (n > 1_000_000n ? 1_000_000 : Number(n))

const popCount = (mask: bigint): number => {
  let n = 0
  for (let b = mask; b > 0n; b >>= 1n) if (b & 1n) n++
  return n
}

const fieldCount = (m: CompiledModule, def: number, variant: number | undefined): number => {
  const fi = m.structDefs[def]!.fieldInformation
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
    case Opcode.Pop:
    case Opcode.BrTrue:
    case Opcode.BrFalse:
    case Opcode.StLoc:
    case Opcode.Abort:
      pops = 1
      break
    case Opcode.LdU8:
    case Opcode.LdU16:
    case Opcode.LdU32:
    case Opcode.LdU64:
    case Opcode.LdU128:
    case Opcode.LdU256:
    case Opcode.LdI8:
    case Opcode.LdI16:
    case Opcode.LdI32:
    case Opcode.LdI64:
    case Opcode.LdI128:
    case Opcode.LdI256:
    case Opcode.LdTrue:
    case Opcode.LdFalse:
    case Opcode.LdConst:
    case Opcode.CopyLoc:
    case Opcode.MoveLoc:
    case Opcode.MutBorrowLoc:
    case Opcode.ImmBorrowLoc:
      pushes = 1
      break
    case Opcode.Not:
    case Opcode.Negate:
    case Opcode.FreezeRef:
    case Opcode.ReadRef:
    case Opcode.Exists:
    case Opcode.ExistsGeneric:
    case Opcode.MutBorrowGlobal:
    case Opcode.MutBorrowGlobalGeneric:
    case Opcode.ImmBorrowGlobal:
    case Opcode.ImmBorrowGlobalGeneric:
    case Opcode.MutBorrowField:
    case Opcode.MutBorrowFieldGeneric:
    case Opcode.ImmBorrowField:
    case Opcode.ImmBorrowFieldGeneric:
    case Opcode.MutBorrowVariantField:
    case Opcode.MutBorrowVariantFieldGeneric:
    case Opcode.ImmBorrowVariantField:
    case Opcode.ImmBorrowVariantFieldGeneric:
    case Opcode.TestVariant:
    case Opcode.TestVariantGeneric:
    case Opcode.MoveFrom:
    case Opcode.MoveFromGeneric:
    case Opcode.CastU8:
    case Opcode.CastU16:
    case Opcode.CastU32:
    case Opcode.CastU64:
    case Opcode.CastU128:
    case Opcode.CastU256:
    case Opcode.CastI8:
    case Opcode.CastI16:
    case Opcode.CastI32:
    case Opcode.CastI64:
    case Opcode.CastI128:
    case Opcode.CastI256:
    case Opcode.VecLen:
    case Opcode.VecPopBack:
      pops = 1
      pushes = 1
      break
    case Opcode.Add:
    case Opcode.Sub:
    case Opcode.Mul:
    case Opcode.Mod:
    case Opcode.Div:
    case Opcode.BitOr:
    case Opcode.BitAnd:
    case Opcode.Xor:
    case Opcode.Shl:
    case Opcode.Shr:
    case Opcode.Or:
    case Opcode.And:
    case Opcode.Eq:
    case Opcode.Neq:
    case Opcode.Lt:
    case Opcode.Gt:
    case Opcode.Le:
    case Opcode.Ge:
    case Opcode.VecImmBorrow:
    case Opcode.VecMutBorrow:
      pops = 2
      pushes = 1
      break
    case Opcode.VecPack:
      pops = clampCount(ins.count)
      pushes = 1
      break
    case Opcode.VecUnpack:
      pops = 1
      pushes = clampCount(ins.count)
      break
    case Opcode.MoveTo:
    case Opcode.MoveToGeneric:
    case Opcode.WriteRef:
    case Opcode.VecPushBack:
    case Opcode.AbortMsg:
      pops = 2
      break
    case Opcode.VecSwap:
      pops = 3
      break
    case Opcode.Branch:
    case Opcode.Nop:
      break
    case Opcode.Ret:
      pops = returns
      break
    case Opcode.Call:
    case Opcode.CallGeneric: {
      const h = m.functionHandles[ins.op === Opcode.Call ? ins.index : m.functionInstantiations[ins.index]!.handle]!
      pops = m.signatures[h.parameters]!.length
      pushes = m.signatures[h.returns]!.length
      break
    }
    case Opcode.CallClosure: {
      // Not a function type: the type-safety pass refuses it; here it moves nothing.
      const t = m.signatures[ins.index]![0]
      if (t?._tag === "Function") {
        pops = 1 + t.args.length
        pushes = t.results.length
      }
      break
    }
    case Opcode.PackClosure:
    case Opcode.PackClosureGeneric:
      pops = popCount(ins.mask)
      pushes = 1
      break
    case Opcode.Pack:
      pops = fieldCount(m, ins.index, undefined)
      pushes = 1
      break
    case Opcode.PackGeneric:
      pops = fieldCount(m, m.structDefInstantiations[ins.index]!.def, undefined)
      pushes = 1
      break
    case Opcode.Unpack:
      pops = 1
      pushes = fieldCount(m, ins.index, undefined)
      break
    case Opcode.UnpackGeneric:
      pops = 1
      pushes = fieldCount(m, m.structDefInstantiations[ins.index]!.def, undefined)
      break
    case Opcode.PackVariant:
    case Opcode.UnpackVariant:
    case Opcode.PackVariantGeneric:
    case Opcode.UnpackVariantGeneric: {
      const generic = ins.op === Opcode.PackVariantGeneric || ins.op === Opcode.UnpackVariantGeneric
      const h = m.structVariantHandles[generic ? m.structVariantInstantiations[ins.index]!.handle : ins.index]!
      const n = fieldCount(m, h.struct, h.variant)
      const packing = ins.op === Opcode.PackVariant || ins.op === Opcode.PackVariantGeneric
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
