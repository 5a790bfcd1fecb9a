/**
 * What processors hand the store (the shape of `processors/Processor.ts`' `TableWrite`, declared
 * here structurally so the store depends on no processor), and how a batch of them becomes the rows
 * to write:
 *
 *  - values are turned into cells (`Dialect.ts`) by their column's type;
 *  - an `Insert` row whose key is already stored is left alone (replaying a batch changes nothing);
 *  - an `Upsert` is merged **in JS** with the stored row (read first, by key) or with an earlier
 *    write of the same batch: guard, update columns, coalesce, or — the same answer from either
 *    store, and no dialect-specific SQL. Generated columns (`TableSpec.derive`) are computed last.
 */
import * as Effect from "effect/Effect"
import type { ScalarType, TableSpec } from "../schema/TableSpec.js"
import type { Cell } from "./Dialect.js"
import { canonicalDecimal, jsonbText, parseTimestamp } from "./values.js"

export type WriteValue =
  | string
  | number
  | bigint
  | boolean
  | null
  | ReadonlyArray<unknown>
  | { readonly [key: string]: unknown }
export type WriteRow = { readonly [column: string]: WriteValue }

export type StoreWrite =
  | { readonly _tag: "Insert"; readonly table: string; readonly rows: ReadonlyArray<WriteRow> }
  | {
      readonly _tag: "Upsert"
      readonly table: string
      readonly rows: ReadonlyArray<WriteRow>
      readonly guard?: string | undefined
      readonly update?: ReadonlyArray<string> | undefined
      readonly coalesce?: ReadonlyArray<string> | undefined
      readonly or?: ReadonlyArray<string> | undefined
    }

export class WriteError extends Error {}

/**
 * `f()` (which throws `WriteError` for a row it cannot write) as an Effect failing with that error.
 *
 * Why the work is a function of the store's and not written inside the closure given here: V8
 * keeps a function's optimized code only while some closure of it is alive, so code in a closure
 * made per call (a `try:` thunk, a callback, an `Effect.gen` body) is dropped at every full
 * collection and compiled again once hot. In the indexer's worker a full collection came every
 * 0.6–1.2 s under load, and the batch loops that lived in such closures here were compiled anew
 * 15–37 times in a 20 s run (`--log-code`; docs/benchmarks.md, "Session 12"). The loops live in
 * functions made once; the thunks only call them.
 */
export const attemptWrite = <A>(f: () => A): Effect.Effect<A, WriteError> =>
  Effect.try({ try: f, catch: (e) => (e instanceof WriteError ? e : new WriteError(String(e))) })

/**
 * A processor's value as the cell of a column of `type`; throws `WriteError` on a value of the
 * wrong kind (`where` names the column: a function, so that the text is built only then).
 */
export const cellOf = (value: WriteValue | undefined, type: ScalarType, where: string | (() => string)): Cell => {
  if (value === null || value === undefined) return null
  const fail = (): never => {
    const at = typeof where === "string" ? where : where()
    throw new WriteError(`${at}: ${typeof value} ${String(value).slice(0, 80)} is not a ${type}`)
  }
  switch (type) {
    case "String":
      return typeof value === "string" ? value : fail()
    case "Boolean":
      return typeof value === "boolean" ? value : fail()
    case "Int":
      return typeof value === "number" && Number.isInteger(value)
        ? value
        : typeof value === "bigint"
          ? Number(value)
          : fail()
    case "bigint":
    case "numeric": {
      const text =
        typeof value === "bigint"
          ? value.toString()
          : typeof value === "number" && Number.isSafeInteger(value)
            ? String(value)
            : typeof value === "string"
              ? canonicalDecimal(value)
              : undefined
      return text ?? fail()
    }
    case "timestamp":
      return typeof value === "bigint" ? value : typeof value === "string" ? (timestampCell(value) ?? fail()) : fail()
    case "jsonb":
      return jsonbText(value)
  }
}

/** The last timestamp text parsed, and its microseconds: a batch's rows repeat their block's. */
let lastTimestamp: { readonly text: string; readonly usec: bigint | undefined } = { text: "", usec: undefined }
const timestampCell = (text: string): bigint | undefined => {
  if (text !== lastTimestamp.text) lastTimestamp = { text, usec: parseTimestamp(text) }
  return lastTimestamp.usec
}

export type CellRow = Record<string, Cell>

/** The text key of a row (its primary key's cells). */
export const keyOf = (table: TableSpec, row: CellRow): string =>
  JSON.stringify(table.primaryKey.map((c) => (typeof row[c] === "bigint" ? String(row[c]) : row[c])))

const compareCells = (a: Cell, b: Cell): number => {
  if (typeof a === "bigint" || typeof b === "bigint" || (typeof a === "string" && /^-?\d+$/.test(a)))
    return BigInt(a as string) < BigInt(b as string) ? -1 : BigInt(a as string) > BigInt(b as string) ? 1 : 0
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0
}

/** An upsert's incoming row merged over the stored one; undefined when the guard keeps the stored row. */
export const mergeUpsert = (
  write: Extract<StoreWrite, { _tag: "Upsert" }>,
  table: TableSpec,
  stored: CellRow | undefined,
  incoming: CellRow,
  written: ReadonlyArray<string>
): CellRow | undefined => {
  if (stored === undefined) return { ...incoming }
  if (write.guard !== undefined) {
    const old = stored[write.guard] ?? null
    const next = incoming[write.guard] ?? null
    if (old !== null && (next === null || compareCells(old, next) > 0)) return undefined
  }
  const merged: CellRow = { ...stored }
  const update = write.update ?? written.filter((c) => !table.primaryKey.includes(c))
  for (const c of update) {
    const next = incoming[c] ?? null
    if (write.coalesce?.includes(c) === true) merged[c] = next ?? stored[c] ?? null
    else if (write.or?.includes(c) === true) merged[c] = stored[c] === true || next === true
    else merged[c] = next
  }
  return merged
}
