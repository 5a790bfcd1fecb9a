/**
 * Readers for Move values in the API's JSON (what `data()` gives): u64 and wider as decimal
 * strings, u8–u32 as numbers, addresses as `0x` hex, `Option<T>` as `{"vec": [T]}`, an
 * `Object<T>` as `{"inner": "0x…"}`, an `Aggregator` as `{"value", "max_value"}`. Every reader
 * returns undefined for a value of the wrong shape instead of throwing, so a processor skips what it
 * cannot read (the reference's processors read the same JSON with serde).
 */
import type { JsonValue } from "./input/IndexerTransaction.js"
import { standardAddress } from "./rows.js"

export type JsonRecord = { readonly [key: string]: JsonValue }

export const asRecord = (v: JsonValue | undefined): JsonRecord | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as JsonRecord) : undefined

export const field = (v: JsonValue | undefined, key: string): JsonValue | undefined => {
  const r = asRecord(v)
  return r === undefined || !Object.hasOwn(r, key) ? undefined : r[key]
}

export const stringField = (v: JsonValue | undefined, key: string): string | undefined => {
  const f = field(v, key)
  return typeof f === "string" ? f : undefined
}

export const boolField = (v: JsonValue | undefined, key: string): boolean | undefined => {
  const f = field(v, key)
  return typeof f === "boolean" ? f : undefined
}

/** An unsigned integer (a decimal string, or a JSON number for u8–u32). */
export const uintOf = (f: JsonValue | undefined): bigint | undefined => {
  if (typeof f === "number") return Number.isSafeInteger(f) && f >= 0 ? BigInt(f) : undefined
  if (typeof f === "string" && /^[0-9]{1,80}$/.test(f)) return BigInt(f)
  return undefined
}

export const uintField = (v: JsonValue | undefined, key: string): bigint | undefined => uintOf(field(v, key))

/** An address field, long form. */
export const addressField = (v: JsonValue | undefined, key: string): string | undefined => {
  const s = stringField(v, key)
  return s === undefined ? undefined : standardAddress(s)
}

/** `Object<T>`'s address (`{"inner": "0x…"}`), long form. */
export const objectAddressField = (v: JsonValue | undefined, key: string): string | undefined =>
  addressField(field(v, key), "inner")

/** `Option<T>` (`{"vec": []}` or `{"vec": [x]}`): the value, null when none, undefined when malformed. */
export const optionField = (v: JsonValue | undefined, key: string): JsonValue | null | undefined => {
  const vec = field(field(v, key), "vec")
  if (!Array.isArray(vec) || vec.length > 1) return undefined
  return vec.length === 0 ? null : (vec[0] as JsonValue)
}

/** A `vector<u8>` shown as `0x` hex, decoded as UTF-8 (invalid sequences replaced). */
export const utf8OfHex = (hex: string | undefined): string | undefined => {
  if (hex === undefined || !/^0x([0-9a-f]{2})*$/i.test(hex)) return undefined
  return Buffer.from(hex.slice(2), "hex").toString("utf8")
}
