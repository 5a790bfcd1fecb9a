/**
 * How a merged upsert reaches the database, given the row stored before the batch: not at all
 * (nothing changed), with only the columns no index covers, or whole.
 *
 * Why: an `INSERT … ON CONFLICT DO UPDATE SET c = excluded.c` rewrites every index that names a
 * column in its SET list — SQLite deletes and re-inserts the index entry even when the value is the
 * same. A balance's upsert (`current_fungible_asset_balances`: indexes on `owner_address` and
 * `asset_type`, neither of which a transfer changes) then cost three times the write-ahead log and
 * 2.6 times the CPU of one that sets only its amount and versions (a 100,000-store table, 1,500
 * upserts a transaction: 11.1 KB and 60 µs against 3.8 KB and 23 µs; docs/benchmarks.md, session 54).
 * The merge already read the stored row (`writes.ts`, `mergeUpsert`), so which columns changed is
 * known here for free. PostgreSQL compares values itself (HOT updates); fewer columns and skipped
 * rows cost it nothing either.
 */
import type { TableSpec } from "../schema/TableSpec.js"
import type { Cell } from "./Dialect.js"
import type { CellRow } from "./writes.js"

/** `skip`: equal to the stored row; `narrow`: no indexed column changed; `full`: new, or an indexed column changed. */
export type UpsertKind = "skip" | "narrow" | "full"

const indexedCache = new WeakMap<TableSpec, ReadonlyArray<string>>()

/** The columns of `t` that some secondary index names, apart from its primary key's. */
export const indexedColumns = (t: TableSpec): ReadonlyArray<string> => {
  let known = indexedCache.get(t)
  if (known === undefined) {
    known = [...new Set(t.indexes.flat())].filter((c) => !t.primaryKey.includes(c))
    indexedCache.set(t, known)
  }
  return known
}

/** The non-key columns a `narrow` write sets: those no index names. */
export const narrowColumns = (t: TableSpec): ReadonlyArray<string> => {
  const indexed = indexedColumns(t)
  return t.columns.map((c) => c.name).filter((c) => !t.primaryKey.includes(c) && !indexed.includes(c))
}

const same = (a: Cell | undefined, b: Cell | undefined): boolean => (a ?? null) === (b ?? null)

/** How to write `merged` over `prior` (the row stored before the batch; undefined: none). */
export const upsertKind = (t: TableSpec, prior: CellRow | undefined, merged: CellRow): UpsertKind => {
  if (prior === undefined) return "full"
  for (const c of indexedColumns(t)) if (!same(prior[c], merged[c])) return "full"
  for (const c of t.columns) if (!same(prior[c.name], merged[c.name])) return "narrow"
  return "skip"
}
