import { Opcode } from "./Opcode.js"

/**
 * One decoded bytecode instruction: `{ op }` plus the operands its opcode carries. The union is
 * discriminated by `op`, so `switch (i.op)` narrows to the right operand fields.
 *
 * Operand conventions:
 * - `offset`: a branch target, as an instruction index into the same code unit (not a byte offset).
 * - `index`: an index into the table the opcode names (locals for *Loc, the constant pool for
 *   LdConst, function handles for Call, struct definitions for Pack, signatures for Vec* and
 *   CallClosure, and so on — see `operandTable` in `opcodeInfo.ts`).
 * - `value`: an immediate. u8/u16/u32 and i8/i16/i32 are `number` (signed ones negative when the
 *   two's complement says so); 64 bits and wider are `bigint` (signed ones may be negative).
 * - `count`: the element count of VecPack/VecUnpack (a u64).
 * - `mask`: the closure mask of PackClosure(Generic): bit i set = parameter i captured (a u64).
 */
export type Instruction =
  | NoOperandInstruction
  | BranchInstruction
  | IndexInstruction
  | SmallLoadInstruction
  | BigLoadInstruction
  | VecCountInstruction
  | ClosureInstruction

export type NoOperandOpcode =
  | Opcode.Pop
  | Opcode.Ret
  | Opcode.LdTrue
  | Opcode.LdFalse
  | Opcode.ReadRef
  | Opcode.WriteRef
  | Opcode.Add
  | Opcode.Sub
  | Opcode.Mul
  | Opcode.Mod
  | Opcode.Div
  | Opcode.BitOr
  | Opcode.BitAnd
  | Opcode.Xor
  | Opcode.Or
  | Opcode.And
  | Opcode.Not
  | Opcode.Eq
  | Opcode.Neq
  | Opcode.Lt
  | Opcode.Gt
  | Opcode.Le
  | Opcode.Ge
  | Opcode.Abort
  | Opcode.Nop
  | Opcode.FreezeRef
  | Opcode.Shl
  | Opcode.Shr
  | Opcode.CastU8
  | Opcode.CastU16
  | Opcode.CastU32
  | Opcode.CastU64
  | Opcode.CastU128
  | Opcode.CastU256
  | Opcode.CastI8
  | Opcode.CastI16
  | Opcode.CastI32
  | Opcode.CastI64
  | Opcode.CastI128
  | Opcode.CastI256
  | Opcode.Negate
  | Opcode.AbortMsg

export type BranchOpcode = Opcode.BrTrue | Opcode.BrFalse | Opcode.Branch

/** Opcodes whose single operand is a uleb128 index into some table (or the locals). */
export type IndexOpcode =
  | Opcode.LdConst
  | Opcode.CopyLoc
  | Opcode.MoveLoc
  | Opcode.StLoc
  | Opcode.MutBorrowLoc
  | Opcode.ImmBorrowLoc
  | Opcode.MutBorrowField
  | Opcode.ImmBorrowField
  | Opcode.MutBorrowFieldGeneric
  | Opcode.ImmBorrowFieldGeneric
  | Opcode.Call
  | Opcode.CallGeneric
  | Opcode.Pack
  | Opcode.PackGeneric
  | Opcode.Unpack
  | Opcode.UnpackGeneric
  | Opcode.Exists
  | Opcode.ExistsGeneric
  | Opcode.MutBorrowGlobal
  | Opcode.MutBorrowGlobalGeneric
  | Opcode.ImmBorrowGlobal
  | Opcode.ImmBorrowGlobalGeneric
  | Opcode.MoveFrom
  | Opcode.MoveFromGeneric
  | Opcode.MoveTo
  | Opcode.MoveToGeneric
  | Opcode.VecLen
  | Opcode.VecImmBorrow
  | Opcode.VecMutBorrow
  | Opcode.VecPushBack
  | Opcode.VecPopBack
  | Opcode.VecSwap
  | Opcode.ImmBorrowVariantField
  | Opcode.MutBorrowVariantField
  | Opcode.ImmBorrowVariantFieldGeneric
  | Opcode.MutBorrowVariantFieldGeneric
  | Opcode.PackVariant
  | Opcode.PackVariantGeneric
  | Opcode.UnpackVariant
  | Opcode.UnpackVariantGeneric
  | Opcode.TestVariant
  | Opcode.TestVariantGeneric
  | Opcode.CallClosure

/** Loads whose immediate fits a JS number: u8, u16, u32, i8, i16, i32. */
export type SmallLoadOpcode = Opcode.LdU8 | Opcode.LdU16 | Opcode.LdU32 | Opcode.LdI8 | Opcode.LdI16 | Opcode.LdI32

/** Loads whose immediate is a bigint: u64, u128, u256, i64, i128, i256. */
export type BigLoadOpcode = Opcode.LdU64 | Opcode.LdU128 | Opcode.LdU256 | Opcode.LdI64 | Opcode.LdI128 | Opcode.LdI256

export type VecCountOpcode = Opcode.VecPack | Opcode.VecUnpack
export type ClosureOpcode = Opcode.PackClosure | Opcode.PackClosureGeneric

export interface NoOperandInstruction {
  readonly op: NoOperandOpcode
}
export interface BranchInstruction {
  readonly op: BranchOpcode
  readonly offset: number
}
export interface IndexInstruction {
  readonly op: IndexOpcode
  readonly index: number
}
export interface SmallLoadInstruction {
  readonly op: SmallLoadOpcode
  readonly value: number
}
export interface BigLoadInstruction {
  readonly op: BigLoadOpcode
  readonly value: bigint
}
export interface VecCountInstruction {
  readonly op: VecCountOpcode
  /** Signature index of the element type. */
  readonly index: number
  readonly count: bigint
}
export interface ClosureInstruction {
  readonly op: ClosureOpcode
  /** Function handle (PackClosure) or function instantiation (PackClosureGeneric). */
  readonly index: number
  readonly mask: bigint
}

/** Frozen shared instances for operand-less instructions: decoding allocates nothing for them. */
export const simpleInstructions: ReadonlyArray<NoOperandInstruction | undefined> = (() => {
  const out: Array<NoOperandInstruction | undefined> = []
  const ops: ReadonlyArray<NoOperandOpcode> = [
    Opcode.Pop,
    Opcode.Ret,
    Opcode.LdTrue,
    Opcode.LdFalse,
    Opcode.ReadRef,
    Opcode.WriteRef,
    Opcode.Add,
    Opcode.Sub,
    Opcode.Mul,
    Opcode.Mod,
    Opcode.Div,
    Opcode.BitOr,
    Opcode.BitAnd,
    Opcode.Xor,
    Opcode.Or,
    Opcode.And,
    Opcode.Not,
    Opcode.Eq,
    Opcode.Neq,
    Opcode.Lt,
    Opcode.Gt,
    Opcode.Le,
    Opcode.Ge,
    Opcode.Abort,
    Opcode.Nop,
    Opcode.FreezeRef,
    Opcode.Shl,
    Opcode.Shr,
    Opcode.CastU8,
    Opcode.CastU16,
    Opcode.CastU32,
    Opcode.CastU64,
    Opcode.CastU128,
    Opcode.CastU256,
    Opcode.CastI8,
    Opcode.CastI16,
    Opcode.CastI32,
    Opcode.CastI64,
    Opcode.CastI128,
    Opcode.CastI256,
    Opcode.Negate,
    Opcode.AbortMsg
  ]
  for (const op of ops) out[op] = Object.freeze({ op })
  return out
})()
