import { K } from "../Type.js"
import { vmError } from "../VmError.js"

/**
 * Integer arithmetic with Move's runtime checks. `kind` is the operand's type kind (`K.U8`…`K.I256`),
 * found by the stack-type pass (`inferKinds`): u8/u16/u32/i8/i16/i32 are numbers, wider are bigints.
 */
const NUM_MIN = [0, 0, 0, 0, 0, 0, 0, -128, -32768, -2147483648]
const NUM_MAX = [0, 255, 65535, 4294967295, 0, 0, 0, 127, 32767, 2147483647]
const BITS = [0, 8, 16, 32, 64, 128, 256, 8, 16, 32, 64, 128, 256]
export const bitsOf = (kind: number): number => BITS[kind] ?? 0
const BIG_MIN: Array<bigint> = []
const BIG_MAX: Array<bigint> = []
BIG_MIN[K.U64] = 0n
BIG_MAX[K.U64] = (1n << 64n) - 1n
BIG_MIN[K.U128] = 0n
BIG_MAX[K.U128] = (1n << 128n) - 1n
BIG_MIN[K.U256] = 0n
BIG_MAX[K.U256] = (1n << 256n) - 1n
BIG_MIN[K.I64] = -(1n << 63n)
BIG_MAX[K.I64] = (1n << 63n) - 1n
BIG_MIN[K.I128] = -(1n << 127n)
BIG_MAX[K.I128] = (1n << 127n) - 1n
BIG_MIN[K.I256] = -(1n << 255n)
BIG_MAX[K.I256] = (1n << 255n) - 1n

const overflow = (what: string): never => vmError("ARITHMETIC_ERROR", what)

/** An operand kind the stack-type pass could not determine is a VM bug, never an unchecked result. */
const unknownKind = (kind: number): never => vmError("INTERNAL_TYPE_ERROR", `no integer kind for operand (${kind})`)

const checkNum = (kind: number, r: number, what: string): number => {
  const max = NUM_MAX[kind]
  if (max === undefined) unknownKind(kind)
  if (r > max! || r < NUM_MIN[kind]!) overflow(what)
  return r
}
const checkBig = (kind: number, r: bigint, what: string): bigint => {
  const max = BIG_MAX[kind]
  if (max === undefined) unknownKind(kind)
  if (r > max! || r < BIG_MIN[kind]!) overflow(what)
  return r
}

export const add = (kind: number, a: any, b: any): number | bigint =>
  typeof a === "number"
    ? checkNum(kind, a + b, "addition overflow")
    : checkBig(kind, (a as bigint) + (b as bigint), "addition overflow")

export const sub = (kind: number, a: any, b: any): number | bigint =>
  typeof a === "number"
    ? checkNum(kind, a - b, "subtraction underflow")
    : checkBig(kind, (a as bigint) - (b as bigint), "subtraction underflow")

export const mul = (kind: number, a: any, b: any): number | bigint =>
  typeof a === "number"
    ? checkNum(kind, a * b, "multiplication overflow")
    : checkBig(kind, (a as bigint) * (b as bigint), "multiplication overflow")

export const div = (kind: number, a: any, b: any): number | bigint => {
  if (typeof a === "number") {
    if (b === 0) overflow("division by zero")
    return checkNum(kind, Math.trunc(a / b), "division overflow")
  }
  if (b === 0n) overflow("division by zero")
  return checkBig(kind, (a as bigint) / (b as bigint), "division overflow")
}

export const mod = (a: any, b: any): number | bigint => {
  if (typeof a === "number") {
    if (b === 0) overflow("division by zero")
    const r = a % b
    return r === 0 ? 0 : r
  }
  if (b === 0n) overflow("division by zero")
  return a % b
}

/** Signed 32-bit-and-narrower results of JS bit operators are folded back into their kind's range. */
const fold = (kind: number, r: number): number => {
  if (kind > K.I32) unknownKind(kind)
  if (kind >= K.I8) {
    const s = 32 - BITS[kind]!
    return (r << s) >> s
  }
  return r >>> 0
}

export const bitAnd = (kind: number, a: any, b: any): number | bigint =>
  typeof a === "number" ? fold(kind, a & b) : a & b
export const bitOr = (kind: number, a: any, b: any): number | bigint =>
  typeof a === "number" ? fold(kind, a | b) : a | b
export const bitXor = (kind: number, a: any, b: any): number | bigint =>
  typeof a === "number" ? fold(kind, a ^ b) : a ^ b

export const shl = (kind: number, a: any, n: number): number | bigint => {
  const bits = BITS[kind] ?? unknownKind(kind)
  if (n >= bits) overflow("shift amount too large")
  if (typeof a === "number") {
    if (kind >= K.I8) return fold(kind, a << n)
    return bits === 32 ? (a << n) >>> 0 : (a << n) & NUM_MAX[kind]!
  }
  const r = a << BigInt(n)
  return kind >= K.I8 ? BigInt.asIntN(bits, r) : BigInt.asUintN(bits, r)
}

export const shr = (kind: number, a: any, n: number): number | bigint => {
  const bits = BITS[kind] ?? unknownKind(kind)
  if (n >= bits) overflow("shift amount too large")
  if (typeof a === "number") return kind >= K.I8 ? a >> n : a >>> n
  return a >> BigInt(n)
}

export const negate = (kind: number, a: any): number | bigint =>
  typeof a === "number"
    ? checkNum(kind, a === 0 ? 0 : -a, "negation overflow")
    : checkBig(kind, -(a as bigint), "negation overflow")

/** Casts: the value may be a number or a bigint of any integer kind; the target's range is checked. */
export const castTo = (kind: number, v: any): number | bigint => {
  if (kind <= K.U32 || (kind >= K.I8 && kind <= K.I32)) {
    const n = typeof v === "number" ? v : v > 0xffffffffn || v < -0x80000000n ? Number.NaN : Number(v)
    if (!(n <= NUM_MAX[kind]! && n >= NUM_MIN[kind]!)) overflow("cast out of range")
    return n
  }
  const b = typeof v === "bigint" ? v : BigInt(v)
  return checkBig(kind, b, "cast out of range")
}
