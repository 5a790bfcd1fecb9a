/**
 * A table's row binder: turns processor rows (plain objects keyed by column name) into an INSERT's
 * positional parameters, in the table's column order.
 *
 * Why it is generated: a batch binds ~140 parameters per transfer, and reading them as
 * `row[column.name]` in one loop sends every table's rows, of every shape, through the same
 * property load — V8 gives up on it (a megamorphic keyed load, a hash lookup per cell; ~1.6 % of
 * the index's thread with the loop's own work another ~4.6 %). The binder reads each column at its
 * own site, `row["account_address"]`, which sees one table's row shapes only and stays a direct
 * field load. The source is built from the catalogue's column names (our own constants, quoted with
 * `JSON.stringify`), never from anything a client or a transaction supplies.
 *
 * The cells are those of `cellOf` + `Dialect.encode`, unchanged: a text column's string and (where
 * the driver takes it) a bigint column's bigint are bound as they are — what that path returns for
 * them — and every other value, including each of the wrong kind, goes through that path itself,
 * so errors (`WriteError`, naming `table.column`) read the same.
 */
import type { TableSpec } from "../schema/TableSpec.js"
import type { Dialect } from "./Dialect.js"
import { cellOf } from "./writes.js"

/** Writes the parameters of rows `i` to `i + size` of `rows` into `params` from index 0. */
export type RowBinder = (
  rows: ReadonlyArray<Readonly<Record<string, unknown>>>,
  i: number,
  size: number,
  params: unknown[]
) => void

export const makeRowBinder = (t: TableSpec, dialect: Dialect): RowBinder => {
  const types = t.columns.map((c) => c.type)
  const labels = t.columns.map((c) => `${t.name}.${c.name}`)
  /** The general path for column `k` (any value, errors included). */
  const cell = (k: number, v: unknown): unknown => dialect.encode(cellOf(v as never, types[k]!, labels[k]!), types[k]!)
  const lines = t.columns.map((c, k) => {
    const read = `v = row[${JSON.stringify(c.name)}]`
    const fast =
      c.type === "String"
        ? `typeof v === "string" ? v : cell(${k}, v)`
        : c.type === "bigint" && dialect.bindsBigint
          ? `typeof v === "bigint" ? v : cell(${k}, v)`
          : `cell(${k}, v)`
    return `${read}; params[p++] = ${fast};`
  })
  const body = `
    return function bindRows(rows, i, size, params) {
      let p = 0
      let v
      for (let r = i; r < i + size; r++) {
        const row = rows[r]
        ${lines.join("\n        ")}
      }
    }`
  return new Function("cell", body)(cell) as RowBinder
}
