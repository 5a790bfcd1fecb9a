import type { BinaryCursor } from "./BinaryCursor.js"
import { fail } from "./BinaryError.js"
import type { CodeUnit } from "./CompiledModule.js"
import { type Instruction, simpleInstructions } from "./Instruction.js"
import { BYTECODE_COUNT_MAX, BYTECODE_INDEX_MAX, LOCAL_INDEX_MAX, TABLE_INDEX_MAX } from "./limits.js"
import { opcodeInfo } from "./opcodeInfo.js"

const asSigned = (v: number, bits: number): number => (v << (32 - bits)) >> (32 - bits)

/** Reads one instruction; the opcode's operand shape comes from `opcodeInfo`. */
const readInstruction = (c: BinaryCursor): Instruction => {
  const at = c.offset
  const op = c.u8()
  const info = opcodeInfo[op]
  if (info === undefined) return fail("UnknownOpcode", `unknown opcode 0x${op.toString(16)}`, at)
  if (c.version < info.since)
    fail("FeatureNotInVersion", `opcode 0x${op.toString(16)} needs bytecode v${info.since}`, at)
  const o = op as any
  switch (info.operand) {
    case "none":
      return simpleInstructions[op]!
    case "branch":
      return { op: o, offset: c.uleb(BYTECODE_INDEX_MAX, "code offset") }
    case "local":
      return { op: o, index: c.uleb(LOCAL_INDEX_MAX, "local index") }
    case "constant":
    case "fieldHandle":
    case "fieldInst":
    case "functionHandle":
    case "functionInst":
    case "structDef":
    case "structDefInst":
    case "signature":
    case "variantFieldHandle":
    case "variantFieldInst":
    case "structVariantHandle":
    case "structVariantInst":
      return { op: o, index: c.uleb(TABLE_INDEX_MAX, "table index") }
    case "u8":
      return { op: o, value: c.u8() }
    case "u16":
      return { op: o, value: c.u16() }
    case "u32":
      return { op: o, value: c.u32() }
    case "u64":
      return { op: o, value: c.u64() }
    case "u128":
      return { op: o, value: c.u128() }
    case "u256":
      return { op: o, value: c.u256() }
    case "i8":
      return { op: o, value: asSigned(c.u8(), 8) }
    case "i16":
      return { op: o, value: asSigned(c.u16(), 16) }
    case "i32":
      return { op: o, value: c.u32() | 0 }
    case "i64":
      return { op: o, value: BigInt.asIntN(64, c.u64()) }
    case "i128":
      return { op: o, value: BigInt.asIntN(128, c.u128()) }
    case "i256":
      return { op: o, value: BigInt.asIntN(256, c.u256()) }
    case "vecCount": {
      const index = c.uleb(TABLE_INDEX_MAX, "signature index")
      return { op: o, index, count: c.u64() }
    }
    case "closure":
    case "closureGeneric": {
      const index = c.uleb(TABLE_INDEX_MAX, "function index")
      return { op: o, index, mask: c.ulebU64("closure mask") }
    }
  }
}

/** A code unit: locals signature index, instruction count, instructions. */
export const readCodeUnit = (c: BinaryCursor): CodeUnit => {
  const locals = c.uleb(TABLE_INDEX_MAX, "locals signature index")
  const at = c.offset
  const count = c.uleb(BYTECODE_COUNT_MAX, "instruction count")
  // Every instruction is at least one byte: refuse a count the remaining bytes cannot hold.
  if (count > c.end - c.offset) fail("UnexpectedEof", `${count} instructions cannot fit`, at)
  const code: Instruction[] = new Array(count)
  for (let i = 0; i < count; i++) code[i] = readInstruction(c)
  return { locals, code }
}
