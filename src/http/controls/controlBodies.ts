/**
 * The JSON bodies of the test controls (`/__movenode/v1/…`), decoded by hand into typed requests:
 * every field checked (type, range), unknown fields refused (a typo such as `sec` must not silently
 * mean "zero seconds"), every failure a 400 `invalid_input` naming the field. Integers are u64:
 * a decimal string (the API's convention for u64) or a JSON number that is a safe integer.
 * An empty body is `{}`.
 */
import { boundedPrefix } from "../../domain/boundedText.js"
import { ApiError, ApiErrors } from "../../domain/ApiError.js"
import * as Result from "effect/Result"
import { fromHex } from "../../bcs/index.js"
import { type AccountAddress, parseAddress } from "../../domain/AccountAddress.js"
import type { StructTag } from "../../domain/TypeTag.js"
import { parseStructTag } from "../../domain/TypeTagString.js"
import { parseJsonBody } from "../Body.js"

const U64_MAX = (1n << 64n) - 1n

export type Fields = Readonly<Record<string, unknown>>

const invalid = (message: string): ApiError => ApiErrors.badRequest(boundedPrefix(message))

/** The body as an object (empty = `{}`), with only `allowed` keys. */
export const objectBody = (body: Uint8Array | undefined, allowed: ReadonlyArray<string>): Fields | ApiError => {
  if (body === undefined || body.length === 0) return {}
  const parsed = parseJsonBody(body)
  if (parsed instanceof ApiError) return parsed
  const v = parsed.value
  if (typeof v !== "object" || v === null || Array.isArray(v))
    return invalid(`expected a JSON object with the fields ${allowed.join(", ") || "(none)"}`)
  for (const k of Object.keys(v))
    if (!allowed.includes(k))
      return invalid(
        `unknown field "${boundedPrefix(k)}": expected ${allowed.length === 0 ? "no fields" : allowed.join(", ")}`
      )
  return v as Fields
}

/** A u64 field: a decimal string or a safe-integer JSON number. */
export const u64Field = (fields: Fields, name: string): bigint | undefined | ApiError => {
  const v = fields[name]
  if (v === undefined || v === null) return undefined
  if (typeof v === "number") {
    if (!Number.isSafeInteger(v) || v < 0)
      return invalid(`${name}: expected a u64 (a decimal string or a non-negative safe integer), got ${v}`)
    return BigInt(v)
  }
  if (typeof v === "string") {
    if (!/^[0-9]{1,20}$/.test(v))
      return invalid(`${name}: expected a u64 as a decimal string, got "${boundedPrefix(v)}"`)
    const n = BigInt(v)
    return n > U64_MAX ? invalid(`${name}: ${v} is above u64`) : n
  }
  return invalid(`${name}: expected a u64 (a decimal string or a number), got ${typeof v}`)
}

export const requiredU64 = (fields: Fields, name: string): bigint | ApiError => {
  const v = u64Field(fields, name)
  return v === undefined ? invalid(`${name}: required`) : v
}

export const booleanField = (fields: Fields, name: string): boolean | undefined | ApiError => {
  const v = fields[name]
  if (v === undefined || v === null) return undefined
  return typeof v === "boolean" ? v : invalid(`${name}: expected true or false, got ${typeof v}`)
}

export const stringField = (fields: Fields, name: string, maxLength = 256): string | undefined | ApiError => {
  const v = fields[name]
  if (v === undefined || v === null) return undefined
  if (typeof v !== "string") return invalid(`${name}: expected a string, got ${typeof v}`)
  return v.length > maxLength ? invalid(`${name}: longer than ${maxLength} characters`) : v
}

/** Runs decoders in order, stopping at the first error (so handlers read as a list of fields). */
export const decode = <A>(f: () => A): A | ApiError => {
  try {
    return f()
  } catch (e) {
    if (e instanceof ApiError) return e
    throw e
  }
}

/** Unwraps a decoded field inside `decode` (throws its error, which `decode` returns). */
export const ok = <A>(v: A | ApiError): A => {
  if (v instanceof ApiError) throw v
  return v
}

/** Seconds to µs, bounded (a u64 of seconds can overflow µs). */
export const secsToUsec = (secs: bigint, name: string): bigint | ApiError =>
  secs > U64_MAX / 1_000_000n ? invalid(`${name}: too large`) : secs * 1_000_000n

/** An account address field (`0x1`, a long or short hex address). */
export const addressField = (fields: Fields, name: string): AccountAddress | ApiError => {
  const v = fields[name]
  if (typeof v !== "string")
    return invalid(`${name}: expected an address string, got ${v === undefined ? "nothing" : typeof v}`)
  const parsed = parseAddress(v)
  return Result.isSuccess(parsed) ? parsed.success : invalid(`${name}: ${parsed.failure.message}`)
}

export const optionalAddressField = (fields: Fields, name: string): AccountAddress | undefined | ApiError =>
  fields[name] === undefined || fields[name] === null ? undefined : addressField(fields, name)

/** Hex bytes (`0x…`, at most `maxBytes`); null/absent = undefined. */
export const hexField = (fields: Fields, name: string, maxBytes = 1 << 20): Uint8Array | undefined | ApiError => {
  const v = fields[name]
  if (v === undefined || v === null) return undefined
  if (typeof v !== "string") return invalid(`${name}: expected a hex string, got ${typeof v}`)
  const s = v.startsWith("0x") || v.startsWith("0X") ? v.slice(2) : v
  if (s.length > maxBytes * 2) return invalid(`${name}: more than ${maxBytes} bytes`)
  const bytes = fromHex(s)
  return bytes === undefined ? invalid(`${name}: not hex bytes`) : bytes
}

export const structTagField = (fields: Fields, name: string): StructTag | ApiError => {
  const v = stringField(fields, name, 4096)
  if (v instanceof ApiError) return v
  if (v === undefined) return invalid(`${name}: required (a struct tag such as 0x1::account::Account)`)
  const parsed = parseStructTag(v)
  return Result.isSuccess(parsed) ? parsed.success : invalid(`${name}: ${parsed.failure.message}`)
}

/** A list of hex byte strings (modules): at most `maxItems`. */
export const hexListField = (fields: Fields, name: string, maxItems = 256): ReadonlyArray<Uint8Array> | ApiError => {
  const v = fields[name]
  if (!Array.isArray(v)) return invalid(`${name}: expected an array of hex strings`)
  if (v.length > maxItems) return invalid(`${name}: more than ${maxItems} items`)
  const out: Uint8Array[] = []
  for (let i = 0; i < v.length; i++) {
    const one = hexField({ item: v[i] }, "item")
    if (one instanceof ApiError) return invalid(`${name}[${i}]: ${one.message}`)
    if (one === undefined) return invalid(`${name}[${i}]: expected a hex string`)
    out.push(one)
  }
  return out
}
