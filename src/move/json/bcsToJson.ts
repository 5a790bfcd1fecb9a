/**
 * BCS → JSON by layout: the reference's `MoveValue` JSON rendering (aptos-api-behaviour §1.10), read
 * straight from the bytes. u8/u16/u32/i8/i16/i32 are numbers, wider integers decimal strings,
 * `vector<u8>` hex, addresses in the short form, `String` a JSON string (or "Unparsable utf-8 0x…"),
 * `Option` `{"vec": [..]}` (either framework form), `Object` `{"inner": "0x…"}`, structs keyed by
 * field name, enums with `__variant__`, object keys sorted as the reference's BTreeMap emits them,
 * closures as `__fun_name__`, `__ty_args__`, `__mask__`, `__captured__`.
 *
 * Input is hostile: every read is bounds-checked by the BcsReader, vector counts are checked against
 * the bytes left before allocating, depth is counted; failures are a typed error, never a throw.
 */
import * as Result from "effect/Result"
import { BcsError, BcsReader, toHex0x } from "../../bcs/index.js"
import { addressToShortString } from "../../domain/AccountAddress.js"
import { INTEGER_KINDS, type MoveTypeLayout, optionElement, specialStruct } from "../layout/MoveTypeLayout.js"
import { readClosureJson } from "./closureToJson.js"
import { JsonConversionError } from "./JsonConversionError.js"
import { type ConversionLimits, defaultConversionLimits } from "./limits.js"

const utf8 = new TextDecoder("utf-8", { fatal: true })

/** A JSON value as the API emits it. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | ReadonlyArray<JsonValue>
  | { readonly [k: string]: JsonValue }

/** Builds an object whose keys iterate in byte order (BTreeMap order; identifiers are ASCII). */
export const sortedObject = (entries: Array<[string, JsonValue]>): { [k: string]: JsonValue } => {
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  const out: { [k: string]: JsonValue } = {}
  for (const [k, v] of entries) out[k] = v
  return out
}

/** Reads one value of `layout` from `r`, as JSON. Throws BcsError (the caller's boundary catches). */
export const readValueAsJson = (r: BcsReader, layout: MoveTypeLayout, limits: ConversionLimits): JsonValue => {
  switch (layout._tag) {
    case "bool":
      return r.bool()
    case "u8":
      return r.u8()
    case "u16":
      return r.u16()
    case "u32":
      return r.u32()
    case "u64":
      return r.u64().toString()
    case "u128":
      return r.u128().toString()
    case "u256":
      return r.u256().toString()
    case "i8":
    case "i16":
    case "i32":
      return r.signed(INTEGER_KINDS[layout._tag].bits) as number
    case "i64":
    case "i128":
    case "i256":
      return r.signed(INTEGER_KINDS[layout._tag].bits).toString()
    case "address":
    case "signer":
      return addressToShortString(r.fixed(32))
    case "vector":
      return nested(r, limits, () => readVector(r, layout.element, limits))
    case "struct":
    case "enum":
      return nested(r, limits, () => readStructOrEnum(r, layout, limits))
    case "function":
      return nested(r, limits, () => readClosureJson(r, limits))
  }
}

const nested = <A>(r: BcsReader, limits: ConversionLimits, f: () => A): A => {
  if (++r.depth > limits.maxDepth) r.fail(`value nested deeper than ${limits.maxDepth}`)
  const v = f()
  r.depth--
  return v
}

const readVector = (r: BcsReader, element: MoveTypeLayout, limits: ConversionLimits): JsonValue => {
  if (element._tag === "u8") return toHex0x(r.bytesWithLength())
  const n = r.length(1)
  if (n > limits.maxVectorLength) r.fail(`vector of ${n} elements exceeds ${limits.maxVectorLength}`)
  const out: JsonValue[] = new Array(n)
  for (let i = 0; i < n; i++) out[i] = readValueAsJson(r, element, limits)
  return out
}

const readFields = (
  r: BcsReader,
  fields: ReadonlyArray<{
    readonly name: string
    readonly layout: MoveTypeLayout
  }>,
  limits: ConversionLimits,
  extra?: [string, JsonValue]
): JsonValue => {
  const entries: Array<[string, JsonValue]> = extra === undefined ? [] : [extra]
  for (const f of fields) entries.push([f.name, readValueAsJson(r, f.layout, limits)])
  return sortedObject(entries)
}

const readStructOrEnum = (
  r: BcsReader,
  layout: MoveTypeLayout & { _tag: "struct" | "enum" },
  limits: ConversionLimits
): JsonValue => {
  const special = specialStruct(layout.struct)
  if (special === "String") {
    const bytes = r.bytesWithLength()
    try {
      return utf8.decode(bytes)
    } catch {
      return `Unparsable utf-8 ${toHex0x(bytes)}`
    }
  }
  if (special === "Option") {
    const element = optionElement(layout)
    if (element !== undefined) {
      const start = r.offset
      const n = r.uleb128()
      if (n > 1) {
        r.offset = start
        r.fail(`invalid Option tag ${n}`)
      }
      // As the reference's annotator: a vector<u8> field, even Option<u8>'s, prints as hex.
      if (element._tag === "u8") return { vec: toHex0x(r.fixed(n)) }
      return { vec: n === 0 ? [] : [readValueAsJson(r, element, limits)] }
    }
  }
  if (layout._tag === "struct") return readFields(r, layout.fields, limits)
  const start = r.offset
  const tag = r.uleb128()
  const variant = layout.variants[tag]
  if (variant === undefined) {
    r.offset = start
    return r.fail(`invalid variant index ${tag} for ${layout.struct.name}`)
  }
  return readFields(r, variant.fields, limits, ["__variant__", variant.name])
}

/** The JSON of one BCS value of `layout`; all of `bytes` must be consumed. Never throws. */
export const bcsToJson = (
  layout: MoveTypeLayout,
  bytes: Uint8Array,
  limits: ConversionLimits = defaultConversionLimits
): Result.Result<JsonValue, JsonConversionError> => {
  if (bytes.length > limits.maxBytes)
    return Result.fail(new JsonConversionError(`value larger than ${limits.maxBytes} bytes`))
  try {
    const r = new BcsReader(bytes)
    const v = readValueAsJson(r, layout, limits)
    r.expectEnd()
    return Result.succeed(v)
  } catch (e) {
    if (e instanceof BcsError) return Result.fail(new JsonConversionError(`failed to deserialize value: ${e.message}`))
    return Result.fail(new JsonConversionError(e instanceof Error ? e.message : String(e)))
  }
}
