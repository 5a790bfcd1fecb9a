/**
 * JSON → BCS by layout: the reference's `try_into_vm_value_from_layout` (aptos-api-behaviour §1.11),
 * writing BCS directly instead of building an intermediate Move value.
 *
 * Input is hostile: recursion follows the layout (whose depth the resolver bounds) and is also
 * counted against `maxDepth`; vector lengths and the output size are bounded; nothing throws.
 */
import * as Result from "effect/Result"
import { BcsWriter } from "../../bcs/index.js"
import { fromHex } from "../../bcs/hex.js"
import type { AccountAddress } from "../../domain/AccountAddress.js"
import { ADDRESS_LENGTH } from "../../domain/AccountAddress.js"
import {
  INTEGER_KINDS,
  type IntegerKind,
  type MoveTypeLayout,
  optionElement,
  specialStruct
} from "../layout/MoveTypeLayout.js"
import { JsonConversionError } from "./JsonConversionError.js"
import { type ConversionLimits, defaultConversionLimits } from "./limits.js"
import { boundedPrefix, quoteString } from "../../domain/boundedText.js"

const textEncoder = new TextEncoder()

/** Thrown inside the walk, caught once at the boundary. */
class Fail {
  constructor(readonly message: string) {}
}

function fail(message: string): never {
  throw new Fail(message)
}

/** serde's description of an unexpected JSON value. */
export const describeJson = (v: unknown): string => {
  if (v === null) return "null"
  switch (typeof v) {
    case "boolean":
      return `boolean \`${v}\``
    case "number":
      return Number.isInteger(v) ? `integer \`${v}\`` : `floating point \`${v}\``
    case "string":
      return `string ${quoteString(v)}`
    default:
      return Array.isArray(v) ? "sequence" : "map"
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)

/** Inclusive bounds of each integer kind, computed once (bigint shifts are not free on a hot path). */
const BOUNDS = Object.fromEntries(
  Object.entries(INTEGER_KINDS).map(([k, { bits, signed }]) => [
    k,
    signed
      ? { min: -(1n << BigInt(bits - 1)), max: (1n << BigInt(bits - 1)) - 1n }
      : { min: 0n, max: (1n << BigInt(bits)) - 1n }
  ])
) as Record<IntegerKind, { readonly min: bigint; readonly max: bigint }>

const SIGNED_DECIMAL = /^[+-]?[0-9]+$/
const UNSIGNED_DECIMAL = /^\+?[0-9]+$/

/** The reference's `U64`/`U128`/… : decimal strings only (JSON numbers rejected), range-checked. */
const parseDecimalInteger = (v: unknown, kind: IntegerKind): bigint => {
  if (typeof v !== "string")
    return fail(`invalid type: ${typeof v === "number" ? "number" : describeJson(v)}, expected a string`)
  if (v.length === 0) return fail("cannot parse integer from empty string")
  // Rust's integer `from_str`: optional sign then decimal digits; 78 digits cover any u256.
  if (v.length > 80 || !(INTEGER_KINDS[kind].signed ? SIGNED_DECIMAL : UNSIGNED_DECIMAL).test(v))
    return fail("invalid digit found in string")
  const n = BigInt(v)
  const { min, max } = BOUNDS[kind]
  if (n > max) return fail("number too large to fit in target type")
  if (n < min) return fail("number too small to fit in target type")
  return n
}

/** u8/u16/u32/i8/i16/i32: JSON numbers only, as `serde_json::from_value::<u8>` (range-checked). */
const parseSmallInteger = (v: unknown, kind: IntegerKind): number => {
  if (typeof v !== "number") return fail(`invalid type: ${describeJson(v)}, expected ${kind}`)
  if (!Number.isInteger(v)) return fail(`invalid type: ${describeJson(v)}, expected ${kind}`)
  const { bits, signed } = INTEGER_KINDS[kind]
  const min = signed ? -(2 ** (bits - 1)) : 0
  const max = signed ? 2 ** (bits - 1) - 1 : 2 ** bits - 1
  if (v < min || v > max) return fail(`invalid value: integer \`${v}\`, expected ${kind}`)
  return v
}

/**
 * An address in any spelling the reference accepts (with or without 0x, 1–64 hex digits, either
 * case), with the reference's messages (the position of a bad character counts in the 64-digit,
 * zero-padded form).
 */
const parseAddressJson = (v: unknown): AccountAddress => {
  if (typeof v !== "string")
    return fail(`invalid type: ${typeof v === "number" ? "number" : describeJson(v)}, expected a string`)
  const digits = v.startsWith("0x") || v.startsWith("0X") ? v.slice(2) : v
  if (digits.length === 0) return fail("Invalid account address: Hex string is too short, must be 1 to 64 chars long")
  if (digits.length > 2 * ADDRESS_LENGTH)
    return fail(
      `Invalid account address: Hex string is too long, must be 1 to 64 chars long, received ${digits.length}`
    )
  // Hex digits fill the address from its last byte backwards (left-padding with zeros).
  const out = new Uint8Array(ADDRESS_LENGTH)
  for (let i = digits.length - 1, b = ADDRESS_LENGTH * 2 - 1; i >= 0; i--, b--) {
    const n = nibble(digits.charCodeAt(i))
    if (n < 0) {
      // Reported as the hex decoder of the padded form does: the first bad character from the left.
      const first = digits.search(/[^0-9a-fA-F]/)
      const position = 2 * ADDRESS_LENGTH - digits.length + first
      return fail(
        `Invalid account address: Hex characters are invalid: Invalid character '${digits[first]}' at position ${position}`
      )
    }
    out[b >> 1]! |= b & 1 ? n : n << 4
  }
  return out
}

const nibble = (c: number): number =>
  c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1

/** `HexEncodedBytes`: a hex string with or without 0x; arrays of numbers are rejected. */
const parseHexBytes = (v: unknown): Uint8Array => {
  if (typeof v !== "string") return fail(`invalid type: ${describeJson(v)}, expected a string`)
  const digits = v.startsWith("0x") ? v.slice(2) : v
  // `fromHex` would strip a second "0x"; the reference's decoder rejects it.
  const bytes = digits.startsWith("0x") || digits.startsWith("0X") ? undefined : fromHex(digits)
  if (bytes !== undefined) return bytes
  if (digits.length % 2 !== 0)
    return fail(`decode hex-encoded string(${quoteString(v)}) failed, caused by error: Odd number of digits`)
  const i = digits.search(/[^0-9a-fA-F]/)
  return fail(
    `decode hex-encoded string(${quoteString(v)}) failed, caused by error: Invalid character '${digits[i]}' at position ${i}`
  )
}

interface Walk {
  readonly w: BcsWriter
  readonly limits: ConversionLimits
  depth: number
}

const checkSize = (s: Walk): void => {
  if (s.w.length > s.limits.maxBytes) fail(`value larger than ${s.limits.maxBytes} bytes`)
}

type Field = { readonly name: string; readonly layout: MoveTypeLayout }

/**
 * An open container being written: a vector's remaining elements (`items`, all of `element`), or
 * a struct's or variant's remaining fields, read from `obj`. `cost` is the nesting it added (an
 * Option counts its struct and its inner vector, as the recursive walk did).
 */
type Frame =
  | {
      readonly kind: "vector"
      readonly items: ReadonlyArray<unknown>
      readonly element: MoveTypeLayout
      i: number
      readonly cost: number
    }
  | {
      readonly kind: "fields"
      readonly obj: Record<string, unknown>
      readonly fields: ReadonlyArray<Field>
      i: number
      readonly cost: number
    }

const enter = (s: Walk, cost: number): void => {
  s.depth += cost
  if (s.depth > s.limits.maxDepth) fail(`value nested deeper than ${s.limits.maxDepth}`)
}

/** The value of a frame's next field, failing as serde does when it is missing. */
const fieldValue = (f: Frame & { kind: "fields" }): unknown => {
  const name = f.fields[f.i]!.name
  if (!Object.hasOwn(f.obj, name)) fail(`field ${boundedPrefix(name)} not found.`)
  return f.obj[name]
}

/**
 * A vector's start: `vector<u8>` (hex) is written at once; for any other element type the length
 * is written and a frame returned when there are elements (undefined otherwise).
 */
const startVector = (s: Walk, element: MoveTypeLayout, v: unknown, cost: number): Frame | undefined => {
  if (element._tag === "u8") {
    const bytes = parseHexBytes(v)
    if (bytes.length > s.limits.maxBytes) fail(`value larger than ${s.limits.maxBytes} bytes`)
    s.w.bytesWithLength(bytes)
    s.depth -= cost
    return undefined
  }
  if (!Array.isArray(v)) fail(`expected vector<${layoutName(element)}>, but got: ${describeJson(v)}`)
  const items = v as ReadonlyArray<unknown>
  if (items.length > s.limits.maxVectorLength)
    fail(`vector of ${items.length} elements exceeds ${s.limits.maxVectorLength}`)
  s.w.uleb128(items.length)
  if (items.length === 0) {
    s.depth -= cost
    return undefined
  }
  return { kind: "vector", items, element, i: 0, cost }
}

/**
 * A struct's or enum's start: String, Object and Option<u8> are written at once (undefined); an
 * Option of anything else and a struct or variant with fields return their frame; `done` (true)
 * when nothing is left to write.
 */
const startStructOrEnum = (
  s: Walk,
  layout: MoveTypeLayout & { _tag: "struct" | "enum" },
  v: unknown
): Frame | undefined => {
  enter(s, 1)
  const special = specialStruct(layout.struct)
  if (special === "String") {
    if (typeof v !== "string") fail("failed to parse string::String.")
    s.w.bytesWithLength(textEncoder.encode(v as string))
    checkSize(s)
    s.depth--
    return undefined
  }
  if (special === "Object") {
    // An address string, as the reference special-cases Object<T> parameters; the struct form
    // {"inner": "0x…"} (what the reference's layout path expects inside vectors) is accepted too.
    s.w.fixed(parseAddressJson(isObject(v) && Object.hasOwn(v, "inner") ? v.inner : v))
    s.depth--
    return undefined
  }
  const element = special === "Option" ? optionElement(layout) : undefined
  if (element !== undefined) {
    // Both framework forms of Option are BCS vector<T> of length 0 or 1; the JSON is `{"vec": [..]}`.
    if (!isObject(v)) fail("Expecting a JSON Map for struct.")
    if (!Object.hasOwn(v as object, "vec")) fail("field vec not found.")
    const vec = (v as Record<string, unknown>).vec
    if (Array.isArray(vec) && vec.length > 1) fail(`expected an Option with at most one element, got ${vec.length}`)
    const start = s.w.length
    enter(s, 1)
    const frame = startVector(s, element, vec, 2)
    // Option<u8> is written as hex (the vector<u8> rule): its length is the first byte written.
    if (element._tag === "u8" && s.w.length - start > 2) fail("expected an Option with at most one element")
    return frame
  }
  if (layout._tag === "struct") {
    if (!isObject(v)) fail("Expecting a JSON Map for struct.")
    if (layout.fields.length === 0) {
      s.depth--
      return undefined
    }
    return { kind: "fields", obj: v as Record<string, unknown>, fields: layout.fields, i: 0, cost: 1 }
  }
  // Enums as input are externally tagged: {"Variant": {fields}}.
  if (!isObject(v)) fail("Expecting a JSON Map for enum.")
  const keys = Object.keys(v as object)
  if (keys.length !== 1) fail(`Expecting a JSON Map with exactly one variant key for enum, got ${keys.length} keys`)
  const name = keys[0]!
  const index = layout.variants.findIndex((x) => x.name === name)
  if (index < 0) fail(`variant ${boundedPrefix(name)} not found.`)
  const body = (v as Record<string, unknown>)[name]
  if (!isObject(body)) fail(`Expecting a JSON Map for variant ${boundedPrefix(name)}.`)
  s.w.uleb128(index)
  const fields = layout.variants[index]!.fields
  if (fields.length === 0) {
    s.depth--
    return undefined
  }
  return { kind: "fields", obj: body as Record<string, unknown>, fields, i: 0, cost: 1 }
}

/** A scalar (every layout but vector, struct and enum), written at once. */
const writeScalar = (s: Walk, layout: MoveTypeLayout, v: unknown): void => {
  switch (layout._tag) {
    case "bool":
      if (typeof v !== "boolean") fail(`invalid type: ${describeJson(v)}, expected a boolean`)
      s.w.bool(v as boolean)
      return
    case "u8":
      s.w.u8(parseSmallInteger(v, "u8"))
      return
    case "u16":
      s.w.u16(parseSmallInteger(v, "u16"))
      return
    case "u32":
      s.w.u32(parseSmallInteger(v, "u32"))
      return
    case "i8":
    case "i16":
    case "i32":
      s.w.signed(INTEGER_KINDS[layout._tag].bits, parseSmallInteger(v, layout._tag))
      return
    case "u64":
      s.w.u64(parseDecimalInteger(v, "u64"))
      return
    case "u128":
      s.w.u128(parseDecimalInteger(v, "u128"))
      return
    case "u256":
      s.w.u256(parseDecimalInteger(v, "u256"))
      return
    case "i64":
    case "i128":
    case "i256":
      s.w.signed(INTEGER_KINDS[layout._tag].bits, parseDecimalInteger(v, layout._tag))
      return
    case "address":
      s.w.fixed(parseAddressJson(v))
      return
    default:
      fail(`unexpected move type ${layoutName(layout)} for value ${describeJson(v)}`)
  }
}

/**
 * Writes `v` as BCS of `layout`. Containers are walked with an explicit stack (their nesting is
 * counted in `s.depth` against `maxDepth`), so no host recursion follows the input's nesting.
 */
const writeValue = (s: Walk, layout: MoveTypeLayout, v: unknown): void => {
  const stack: Frame[] = []
  let cur = layout
  let val = v
  for (;;) {
    let frame: Frame | undefined
    if (cur._tag === "vector") {
      enter(s, 1)
      frame = startVector(s, cur.element, val, 1)
    } else if (cur._tag === "struct" || cur._tag === "enum") frame = startStructOrEnum(s, cur, val)
    else writeScalar(s, cur, val)
    if (frame !== undefined) {
      stack.push(frame)
      if (frame.kind === "vector") {
        cur = frame.element
        val = frame.items[0]
      } else {
        cur = frame.fields[0]!.layout
        val = fieldValue(frame)
      }
      continue
    }
    // Move on to the next element of the innermost open container, closing finished ones.
    for (;;) {
      const f = stack[stack.length - 1]
      if (f === undefined) return
      if (f.kind === "vector") {
        checkSize(s)
        if (++f.i < f.items.length) {
          cur = f.element
          val = f.items[f.i]
          break
        }
      } else if (++f.i < f.fields.length) {
        cur = f.fields[f.i]!.layout
        val = fieldValue(f)
        break
      }
      stack.pop()
      s.depth -= f.cost
    }
  }
}

/** A short name of a layout for messages (`vector<u8>`, `0x1::string::String`). */
export const layoutName = (layout: MoveTypeLayout): string => {
  switch (layout._tag) {
    case "vector":
      return `vector<${layoutName(layout.element)}>`
    case "struct":
    case "enum":
      return `${layout.struct.module}::${layout.struct.name}`
    case "function":
      return layout.signature
    default:
      return layout._tag
  }
}

/** Writes `value` as BCS of `layout` into `w`. Failures leave `w` partially written. */
export const writeJsonAsBcs = (
  w: BcsWriter,
  layout: MoveTypeLayout,
  value: unknown,
  limits: ConversionLimits = defaultConversionLimits
): Result.Result<void, JsonConversionError> => {
  try {
    const s: Walk = { w, limits, depth: 0 }
    writeValue(s, layout, value)
    checkSize(s)
    return Result.void
  } catch (e) {
    if (e instanceof Fail) return Result.fail(new JsonConversionError(e.message))
    // RangeError from the writer or a stack overflow: still this input's failure, never an escape.
    return Result.fail(new JsonConversionError(e instanceof Error ? e.message : String(e)))
  }
}

/** The BCS bytes of a JSON value read as `layout`. Never throws. */
export const jsonToBcs = (
  layout: MoveTypeLayout,
  value: unknown,
  limits: ConversionLimits = defaultConversionLimits
): Result.Result<Uint8Array, JsonConversionError> => {
  const w = new BcsWriter(64)
  return Result.map(writeJsonAsBcs(w, layout, value, limits), () => w.toBytes())
}

const attempt = <A>(f: () => A): Result.Result<A, JsonConversionError> => {
  try {
    return Result.succeed(f())
  } catch (e) {
    return Result.fail(new JsonConversionError(e instanceof Error || e instanceof Fail ? e.message : String(e)))
  }
}

/** A JSON address (any accepted spelling), with the reference's messages. Never throws. */
export const addressFromJson = (v: unknown): Result.Result<Uint8Array, JsonConversionError> =>
  attempt(() => parseAddressJson(v))

/** A JSON decimal-string integer (U64, I128, …), range-checked, with Rust's messages. Never throws. */
export const decimalIntegerFromJson = (v: unknown, kind: IntegerKind): Result.Result<bigint, JsonConversionError> =>
  attempt(() => parseDecimalInteger(v, kind))

/** `HexEncodedBytes`: hex with or without 0x, either case, with the reference's messages. Never throws. */
export const hexBytesFromJson = (v: unknown): Result.Result<Uint8Array, JsonConversionError> =>
  attempt(() => parseHexBytes(v))
