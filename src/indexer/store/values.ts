/**
 * Column values between the processors, the two stores and the GraphQL answers, with no precision
 * lost anywhere:
 *
 *  - a **decimal** (`bigint` and `numeric` columns) travels as its canonical decimal text
 *    (`"18446744073709551615"`, `"-1"`, `"10.5"`); the answer prints it as a JSON number, digit for
 *    digit (as Hasura prints Postgres' numeric text).
 *  - SQLite has no exact u128, so its `numeric` columns hold `sortableDecimal` text: comparing two
 *    encodings as strings orders them as numbers, so `_gt`, `order_by` and indexes work on it
 *    (the store's format: `ddl.ts` names its version in the schema hash).
 *  - a **timestamp** (`timestamp` columns, no zone, as the reference's) is microseconds since the
 *    epoch; Hasura prints it as ISO text with the fraction only when present, trailing zeros cut.
 */

import { sortInPlace } from "../../domain/sortInPlace.js"

const DECIMAL = /^(-?)(\d{1,40})(?:\.(\d{1,40}))?$/

/** The canonical text of a decimal (no leading zeros, no trailing fraction zeros), or undefined if `text` is not one. */
export const canonicalDecimal = (text: string): string | undefined => {
  const m = DECIMAL.exec(text.trim())
  if (m === null) return undefined
  const int = m[2]!.replace(/^0+(?=\d)/, "")
  const frac = (m[3] ?? "").replace(/0+$/, "")
  const body = frac === "" ? int : `${int}.${frac}`
  return m[1] === "-" && body !== "0" ? `-${body}` : body
}

/**
 * Digits of a decimal's integer part, as two digits: the first thing two encodings compare, so a
 * longer integer part (a larger magnitude) decides before its digits are read. `DECIMAL` allows 40.
 */
const lengthDigits = (n: number): string => (n < 10 ? `0${n}` : String(n))

const ninesComplement = (digits: string): string => {
  let out = ""
  for (let i = 0; i < digits.length; i++) out += String(9 - (digits.charCodeAt(i) - 48))
  return out
}

/**
 * An order-preserving text for a canonical decimal (comparing two encodings as strings orders them
 * as numbers), as short as the number: a non-negative one is `1`, the integer part's digit count
 * (two digits), its digits, then `.` and the fraction when there is one (`0` → `1010`, `61` →
 * `10261`, `10.5` → `10210.5`); a negative one is `0`, then the nines' complement of all that
 * (count, digits, fraction), then `:` — above every digit, so of two negative numbers whose digits
 * agree as far as the shorter goes, the one with more (the larger magnitude) sorts lower.
 *
 * Until session 42 the integer part was padded to 40 digits: every amount took 41 characters, a
 * fungible-asset activity row ~70 bytes more (two of its columns are `numeric`) for nothing.
 */
export const sortableDecimal = (canonical: string): string => {
  const negative = canonical.startsWith("-")
  const body = negative ? canonical.slice(1) : canonical
  const dot = body.indexOf(".")
  const intDigits = dot < 0 ? body.length : dot
  if (!negative) return `1${lengthDigits(intDigits)}${body}`
  const fraction = dot < 0 ? "" : body.slice(dot + 1)
  return `0${ninesComplement(lengthDigits(intDigits) + body.slice(0, intDigits) + fraction)}:`
}

/** The canonical decimal of a `sortableDecimal` text. */
export const fromSortableDecimal = (encoded: string): string => {
  if (encoded.startsWith("1")) return encoded.slice(3)
  const digits = ninesComplement(encoded.slice(1, encoded.length - 1))
  const intDigits = Number(digits.slice(0, 2))
  const int = digits.slice(2, 2 + intDigits)
  const fraction = digits.slice(2 + intDigits)
  return `-${fraction === "" ? int : `${int}.${fraction}`}`
}

const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/

/**
 * Microseconds since the epoch of a `timestamp` input (ISO date, date and time, optional fraction;
 * a zone is accepted and ignored, as Postgres does for `timestamp without time zone`), or undefined.
 */
export const parseTimestamp = (text: string): bigint | undefined => {
  const m = TIMESTAMP.exec(text.trim())
  if (m === null) return undefined
  const [y, mo, d, h = "0", mi = "0", s = "0"] = m.slice(1, 7).map((x) => x ?? "0")
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s))
  if (!Number.isFinite(ms) || Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(d) > 31) return undefined
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 60) return undefined
  const fraction = (m[7] ?? "").padEnd(6, "0").slice(0, 6)
  return BigInt(ms) * 1000n + BigInt(fraction)
}

const floorDiv = (a: bigint, b: bigint): bigint => (a >= 0n ? a / b : -((-a + b - 1n) / b))

/** Hasura's text of a `timestamp`: `2024-01-16T21:59:54.425376`, `2024-09-05T11:52:16` (no zone). */
export const timestampText = (usec: bigint): string => {
  const seconds = floorDiv(usec, 1_000_000n)
  const micros = usec - seconds * 1_000_000n
  const iso = new Date(Number(seconds) * 1000).toISOString().slice(0, 19)
  if (micros === 0n) return iso
  return `${iso}.${micros.toString().padStart(6, "0").replace(/0+$/, "")}`
}

const utf8Length = (s: string) => Buffer.byteLength(s, "utf8")
const isAscii = (s: string): boolean => {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false
  return true
}
/** Postgres' jsonb key order: shorter keys first, then bytewise (its `compareJsonbScalarValue`). */
const jsonbKeyOrder = (a: string, b: string): number => {
  // Field names are ASCII: their UTF-8 is their code units, so no byte copies are needed.
  if (isAscii(a) && isAscii(b)) return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0
  const la = utf8Length(a)
  const lb = utf8Length(b)
  if (la !== lb) return la - lb
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"))
}

/**
 * The text Postgres prints for a `jsonb` value (Hasura passes it through): object keys unique
 * (the last wins) in jsonb's order, `": "` and `", "` separators. The embedded store keeps this text,
 * so both stores answer alike; a `bigint` inside is written as a JSON number.
 */
export const jsonbText = (value: unknown): string => {
  if (value === null || value === undefined) return "null"
  switch (typeof value) {
    case "string":
      return JSON.stringify(value)
    case "number":
      return Number.isFinite(value) ? JSON.stringify(value) : "null"
    case "bigint":
      return value.toString()
    case "boolean":
      return value ? "true" : "false"
    case "object": {
      if (Array.isArray(value)) {
        let out = "["
        for (let i = 0; i < value.length; i++) out += (i === 0 ? "" : ", ") + jsonbText(value[i])
        return out + "]"
      }
      const object = value as Record<string, unknown>
      const keys = Object.keys(object).filter((k) => object[k] !== undefined)
      sortInPlace(keys, jsonbKeyOrder)
      let out = "{"
      for (let i = 0; i < keys.length; i++)
        out += (i === 0 ? "" : ", ") + JSON.stringify(keys[i]) + ": " + jsonbText(object[keys[i]!])
      return out + "}"
    }
    default:
      return "null"
  }
}
