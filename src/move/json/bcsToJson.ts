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

/**
 * Sets `out[key]` as an own property. `__proto__` is a valid Move identifier; assigned, it would set
 * the object's prototype (or be ignored) instead of becoming a field of the JSON.
 */
const setField = (out: { [k: string]: JsonValue }, key: string, value: JsonValue): void => {
  if (key === "__proto__")
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
  else out[key] = value
}

/** Builds an object whose keys iterate in byte order (BTreeMap order; identifiers are ASCII). */
export const sortedObject = (entries: Array<[string, JsonValue]>): { [k: string]: JsonValue } => {
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  const out: { [k: string]: JsonValue } = {}
  for (const [k, v] of entries) setField(out, k, v)
  return out
}

type Field = { readonly name: string; readonly layout: MoveTypeLayout }

/**
 * A struct's or variant's JSON keys in BTreeMap order, each with the index of its value among the
 * values read (declaration order; an enum's `__variant__` value first). Computed once per field
 * list (layouts are cached by their users) instead of sorting each value's entries.
 */
type ObjectKeys = { readonly names: ReadonlyArray<string>; readonly from: ReadonlyArray<number> }
const structKeys = new WeakMap<ReadonlyArray<Field>, ObjectKeys>()
const variantKeys = new WeakMap<ReadonlyArray<Field>, ObjectKeys>()
const VARIANT_KEY = "__variant__"
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

const objectKeysOf = (fields: ReadonlyArray<Field>, variant: boolean): ObjectKeys => {
  const cache = variant ? variantKeys : structKeys
  let keys = cache.get(fields)
  if (keys === undefined) {
    const names = variant ? [VARIANT_KEY, ...fields.map((f) => f.name)] : fields.map((f) => f.name)
    const from = names.map((_, i) => i).sort((a, b) => byteOrder(names[a]!, names[b]!))
    keys = { names: from.map((i) => names[i]!), from }
    cache.set(fields, keys)
  }
  return keys
}

const objectOf = (keys: ObjectKeys, values: ReadonlyArray<JsonValue>): { [k: string]: JsonValue } => {
  const out: { [k: string]: JsonValue } = {}
  for (let i = 0; i < keys.names.length; i++) setField(out, keys.names[i]!, values[keys.from[i]!]!)
  return out
}

/**
 * An open container: a vector's elements (all of `element`), a struct's or variant's fields (an
 * object once complete, its keys sorted), or an Option's one element (`{"vec": [v]}`).
 */
type Frame =
  | { readonly kind: "vector"; readonly out: JsonValue[]; readonly element: MoveTypeLayout; i: number }
  | {
      readonly kind: "fields"
      /** The fields' values in declaration order (the variant's name first for an enum). */
      readonly values: JsonValue[]
      readonly fields: ReadonlyArray<Field>
      readonly keys: ObjectKeys
      i: number
    }
  | { readonly kind: "option"; readonly element: MoveTypeLayout }

/** A scalar's JSON (everything but vector, struct, enum and function), read from `r`. */
const readScalar = (r: BcsReader, layout: MoveTypeLayout): JsonValue => {
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
    default:
      return r.fail(`unexpected layout ${layout._tag}`)
  }
}

/**
 * Reads one value of `layout` from `r`, as JSON. Throws BcsError (the caller's boundary catches).
 * Containers are walked with an explicit stack; `r.depth` counts the open ones (checked against
 * `limits.maxDepth`), so no host recursion follows the input's nesting.
 */
export const readValueAsJson = (r: BcsReader, layout: MoveTypeLayout, limits: ConversionLimits): JsonValue => {
  const stack: Frame[] = []
  const open = (f: Frame) => {
    if (++r.depth > limits.maxDepth) r.fail(`value nested deeper than ${limits.maxDepth}`)
    stack.push(f)
  }
  let cur = layout
  for (;;) {
    // The value of `cur`, when it is complete at once; undefined when a container was opened.
    let v: JsonValue | undefined
    switch (cur._tag) {
      case "vector": {
        if (r.depth + 1 > limits.maxDepth) r.fail(`value nested deeper than ${limits.maxDepth}`)
        if (cur.element._tag === "u8") {
          v = toHex0x(r.bytesWithLength())
          break
        }
        const n = r.length(1)
        if (n > limits.maxVectorLength) r.fail(`vector of ${n} elements exceeds ${limits.maxVectorLength}`)
        const out: JsonValue[] = new Array(n)
        if (n === 0) v = out
        else open({ kind: "vector", out, element: cur.element, i: 0 })
        break
      }
      case "struct":
      case "enum":
        v = openStructOrEnum(r, cur, limits, open)
        break
      case "function":
        if (r.depth + 1 > limits.maxDepth) r.fail(`value nested deeper than ${limits.maxDepth}`)
        r.depth++
        v = readClosureJson(r, limits)
        r.depth--
        break
      default:
        v = readScalar(r, cur)
    }
    if (v === undefined) {
      // A container was opened: read its first element.
      const top = stack[stack.length - 1]!
      cur = top.kind === "fields" ? top.fields[0]!.layout : top.element
      continue
    }
    // Hand the value to the open containers; one just completed is handed on in turn.
    for (;;) {
      const f = stack[stack.length - 1]
      if (f === undefined) return v
      let next: MoveTypeLayout | undefined
      if (f.kind === "vector") {
        f.out[f.i++] = v
        if (f.i < f.out.length) next = f.element
      } else if (f.kind === "fields") {
        f.values.push(v)
        if (++f.i < f.fields.length) next = f.fields[f.i]!.layout
      }
      if (next !== undefined) {
        cur = next
        break
      }
      stack.pop()
      r.depth--
      v = f.kind === "vector" ? f.out : f.kind === "fields" ? objectOf(f.keys, f.values) : { vec: [v] }
    }
  }
}

/**
 * A struct or enum: its JSON when complete at once (String, empty Option, `Option<u8>`, no fields),
 * else undefined after opening its frame.
 */
const openStructOrEnum = (
  r: BcsReader,
  layout: MoveTypeLayout & { _tag: "struct" | "enum" },
  limits: ConversionLimits,
  open: (f: Frame) => void
): JsonValue | undefined => {
  if (r.depth + 1 > limits.maxDepth) r.fail(`value nested deeper than ${limits.maxDepth}`)
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
      if (n === 0) return { vec: [] }
      open({ kind: "option", element })
      return undefined
    }
  }
  let fields: ReadonlyArray<Field>
  const values: JsonValue[] = []
  let keys: ObjectKeys
  if (layout._tag === "struct") {
    fields = layout.fields
    keys = objectKeysOf(fields, false)
  } else {
    const start = r.offset
    const tag = r.uleb128()
    const variant = layout.variants[tag]
    if (variant === undefined) {
      r.offset = start
      return r.fail(`invalid variant index ${tag} for ${layout.struct.name}`)
    }
    values.push(variant.name)
    fields = variant.fields
    keys = objectKeysOf(fields, true)
  }
  if (fields.length === 0) return objectOf(keys, values)
  open({ kind: "fields", values, fields, keys, i: 0 })
  return undefined
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
