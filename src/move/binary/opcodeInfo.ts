import { Opcode } from "./Opcode.js"

/**
 * What follows each opcode byte, and since which bytecode version the opcode exists. The reader,
 * the writer and the bounds checker all dispatch on this one table, so an opcode's encoding is
 * stated exactly once.
 */
export type OperandKind =
  | "none"
  | "branch"
  | "local"
  | "constant"
  | "fieldHandle"
  | "fieldInst"
  | "functionHandle"
  | "functionInst"
  | "structDef"
  | "structDefInst"
  | "signature"
  | "variantFieldHandle"
  | "variantFieldInst"
  | "structVariantHandle"
  | "structVariantInst"
  | "u8"
  | "u16"
  | "u32"
  | "u64"
  | "u128"
  | "u256"
  | "i8"
  | "i16"
  | "i32"
  | "i64"
  | "i128"
  | "i256"
  | "vecCount"
  | "closure"
  | "closureGeneric"

export interface OpcodeInfo {
  readonly operand: OperandKind
  readonly since: number
}

const info: Array<OpcodeInfo | undefined> = []
const def = (ops: ReadonlyArray<Opcode>, operand: OperandKind, since = 1): void => {
  for (const op of ops) info[op] = { operand, since }
}

const O = Opcode
def([O.Pop, O.Ret, O.LdTrue, O.LdFalse, O.ReadRef, O.WriteRef, O.Add, O.Sub, O.Mul, O.Mod, O.Div, O.BitOr], "none")
def([O.BitAnd, O.Xor, O.Or, O.And, O.Not, O.Eq, O.Neq, O.Lt, O.Gt, O.Le, O.Ge, O.Abort, O.Nop], "none")
def([O.FreezeRef, O.Shl, O.Shr, O.CastU8, O.CastU64, O.CastU128], "none")
def([O.BrTrue, O.BrFalse, O.Branch], "branch")
def([O.CopyLoc, O.MoveLoc, O.StLoc, O.MutBorrowLoc, O.ImmBorrowLoc], "local")
def([O.LdConst], "constant")
def([O.MutBorrowField, O.ImmBorrowField], "fieldHandle")
def([O.MutBorrowFieldGeneric, O.ImmBorrowFieldGeneric], "fieldInst")
def([O.Call], "functionHandle")
def([O.CallGeneric], "functionInst")
def([O.Pack, O.Unpack, O.Exists, O.MutBorrowGlobal, O.ImmBorrowGlobal, O.MoveFrom, O.MoveTo], "structDef")
def(
  [O.PackGeneric, O.UnpackGeneric, O.ExistsGeneric, O.MutBorrowGlobalGeneric, O.ImmBorrowGlobalGeneric],
  "structDefInst"
)
def([O.MoveFromGeneric, O.MoveToGeneric], "structDefInst")
def([O.LdU8], "u8")
def([O.LdU64], "u64")
def([O.LdU128], "u128")
def([O.VecPack, O.VecUnpack], "vecCount", 4)
def([O.VecLen, O.VecImmBorrow, O.VecMutBorrow, O.VecPushBack, O.VecPopBack, O.VecSwap], "signature", 4)
def([O.LdU16], "u16", 6)
def([O.LdU32], "u32", 6)
def([O.LdU256], "u256", 6)
def([O.CastU16, O.CastU32, O.CastU256], "none", 6)
def([O.ImmBorrowVariantField, O.MutBorrowVariantField], "variantFieldHandle", 7)
def([O.ImmBorrowVariantFieldGeneric, O.MutBorrowVariantFieldGeneric], "variantFieldInst", 7)
def([O.PackVariant, O.UnpackVariant, O.TestVariant], "structVariantHandle", 7)
def([O.PackVariantGeneric, O.UnpackVariantGeneric, O.TestVariantGeneric], "structVariantInst", 7)
def([O.PackClosure], "closure", 8)
def([O.PackClosureGeneric], "closureGeneric", 8)
def([O.CallClosure], "signature", 8)
def([O.LdI8], "i8", 9)
def([O.LdI16], "i16", 9)
def([O.LdI32], "i32", 9)
def([O.LdI64], "i64", 9)
def([O.LdI128], "i128", 9)
def([O.LdI256], "i256", 9)
def([O.CastI8, O.CastI16, O.CastI32, O.CastI64, O.CastI128, O.CastI256, O.Negate], "none", 9)
def([O.AbortMsg], "none", 10)

/** Indexed by opcode byte; undefined for bytes that are not opcodes. */
export const opcodeInfo: ReadonlyArray<OpcodeInfo | undefined> = info
