/**
 * Helpers the processors share to build rows: the reference's value formats (long-form addresses,
 * timestamps as Postgres prints them) and the in-batch collapse of `current_*` rows (one row per
 * primary key per statement, with the same merge rules the store applies across batches).
 */
import * as Result from "effect/Result"
import { addressToLongString, parseAddress } from "../../domain/AccountAddress.js"
import type { ColumnValue, Insert, Row, TableWrite, Upsert } from "./Processor.js"

/**
 * The reference's `standardize_address`: `0x` + 64 lowercase hex digits (left-padded); undefined
 * for text that is not an address.
 */
const LONG_LOWER = /^0x[0-9a-f]{64}$/
const SHORT_LOWER = /^0x[0-9a-f]{1,63}$/

/**
 * Short forms seen, with their long forms: the JSON a processor reads writes `0x1`, `0xa` and any
 * address with a leading zero nibble short, over and over (the APT metadata of every fungible-asset
 * row): built once, and flattened by its first use instead of every row's being a concatenation of
 * its own to flatten when it is bound. Bounded: cleared when full.
 */
const longForms = new Map<string, string>()
const LONG_FORMS_MAX = 4096

export const standardAddress = (text: string): string | undefined => {
  // The API's JSON writes addresses in lowercase, short or long: no parsing needed for those.
  if (text.length === 66 && LONG_LOWER.test(text)) return text
  const known = longForms.get(text)
  if (known !== undefined) return known
  let long: string | undefined
  if (SHORT_LOWER.test(text)) long = `0x${text.slice(2).padStart(64, "0")}`
  else {
    const parsed = parseAddress(text)
    long = Result.isSuccess(parsed) ? addressToLongString(parsed.success) : undefined
  }
  if (long === undefined) return undefined
  if (longForms.size >= LONG_FORMS_MAX) longForms.clear()
  longForms.set(text, long)
  return long
}

/** 9999-12-31T23:59:59: the reference clamps later timestamps (an expiration of u64::MAX) to it. */
const MAX_TIMESTAMP_SECS = 253_402_300_799n

const pad = (n: number, width: number) => String(n).padStart(width, "0")

/**
 * A `timestamp` column's text for `micros` since the epoch, as Postgres prints a timestamp without
 * zone and Hasura returns it: `2024-06-25T23:55:53` or `2025-02-07T07:34:24.075953` (the fraction
 * without trailing zeros, absent when zero). Seconds from 9999-12-31T23:59:59 on are clamped to it,
 * as the reference's `parse_timestamp` does.
 */
export const timestampOfMicros = (micros: bigint): string => {
  // A block's rows all print its timestamp: the last one is kept.
  if (micros === lastMicros) return lastText
  lastText = timestampText(micros)
  lastMicros = micros
  return lastText
}
let lastMicros = -1n
let lastText = ""

const timestampText = (micros: bigint): string => {
  let seconds = micros / 1_000_000n
  let fraction = Number(micros % 1_000_000n)
  if (micros < 0n) {
    seconds = 0n
    fraction = 0
  }
  if (seconds >= MAX_TIMESTAMP_SECS) {
    seconds = MAX_TIMESTAMP_SECS
    fraction = 0
  }
  const d = new Date(Number(seconds) * 1000)
  const base =
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}` +
    `T${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`
  return fraction === 0 ? base : `${base}.${pad(fraction, 6).replace(/0+$/, "")}`
}

/** Whole seconds of `micros` (the fungible-asset tables' timestamps, `parse_timestamp_secs`). */
export const timestampSecondsOfMicros = (micros: bigint): string =>
  timestampOfMicros((micros / 1_000_000n) * 1_000_000n)

/** A timestamp column from a count of seconds (`expiration_timestamp_secs`). */
export const timestampOfSeconds = (seconds: bigint): string =>
  timestampOfMicros(seconds >= MAX_TIMESTAMP_SECS ? MAX_TIMESTAMP_SECS * 1_000_000n : seconds * 1_000_000n)

/** An `Insert`, or nothing when there are no rows. */
export const insertRows = (table: string, rows: ReadonlyArray<Row>): TableWrite[] =>
  rows.length === 0 ? [] : [{ _tag: "Insert", table, rows } satisfies Insert]

export interface UpsertRules {
  readonly table: string
  /** The primary key's columns. */
  readonly key: ReadonlyArray<string>
  readonly guard?: string | undefined
  readonly update?: ReadonlyArray<string> | undefined
  readonly coalesce?: ReadonlyArray<string> | undefined
  readonly or?: ReadonlyArray<string> | undefined
}

const keyOf = (row: Row, key: ReadonlyArray<string>): string =>
  key.length === 1 ? String(row[key[0]!]) : key.map((c) => String(row[c])).join("\u0000")

const notGreater = (stored: ColumnValue | undefined, next: ColumnValue | undefined): boolean => {
  if (stored === null || stored === undefined) return true
  if (next === null || next === undefined) return false
  return (stored as bigint | number) <= (next as bigint | number)
}

/**
 * Collapses rows (in version order) to one per primary key, applying the store's upsert rules
 * between them (a later row updates the earlier one only as the store would: guard, update columns,
 * coalesce, or), and wraps them in an `Upsert` (nothing when there are no rows).
 */
export const upsertRows = (rules: UpsertRules, rows: ReadonlyArray<Row>): TableWrite[] => {
  if (rows.length === 0) return []
  const byKey = new Map<string, Row>()
  for (const row of rows) {
    const k = keyOf(row, rules.key)
    const stored = byKey.get(k)
    if (stored === undefined) {
      byKey.set(k, row)
      continue
    }
    if (rules.guard !== undefined && !notGreater(stored[rules.guard], row[rules.guard])) continue
    const merged: { [column: string]: ColumnValue } = { ...stored }
    const columns = rules.update ?? Object.keys(row).filter((c) => !rules.key.includes(c))
    for (const c of columns) {
      const next = row[c] ?? null
      if (rules.coalesce?.includes(c) === true) merged[c] = next ?? stored[c] ?? null
      else if (rules.or?.includes(c) === true) merged[c] = stored[c] === true || next === true
      else merged[c] = next
    }
    byKey.set(k, merged)
  }
  const write: Upsert = {
    _tag: "Upsert",
    table: rules.table,
    rows: [...byKey.values()],
    guard: rules.guard,
    update: rules.update,
    coalesce: rules.coalesce,
    or: rules.or
  }
  return [write]
}

/** The first `max` characters (code points) of `s`: the reference truncates names, symbols, URIs. */
export const truncate = (s: string, max: number): string => {
  if (s.length <= max) return s
  return Array.from(s).slice(0, max).join("")
}
