/**
 * The store's schema, derived from the catalogue: one table per catalogue table (its primary key,
 * its indexes), one view per catalogue view, and `indexer_meta` (what the index holds: schema hash,
 * position). No migrations: when the schema's text changes, the index is dropped and rebuilt from
 * the ledger (cheap on a local chain), as its hash in `indexer_meta` says.
 */
import { createHash } from "node:crypto"
import type { TableSpec } from "../schema/TableSpec.js"
import { type Dialect, quoteIdent } from "./Dialect.js"

export const META_TABLE = "indexer_meta"

/** Bumped when the store's format changes in a way the DDL text does not show. */
const STORE_FORMAT = 1
/**
 * The version of SQLite's text for `numeric` cells (`values.ts`, `sortableDecimal`): 2 since
 * session 42 (as long as the number; 1 padded every integer part to 40 digits). A SQLite index
 * written with another is rebuilt; PostgreSQL stores numbers as numbers, and its hash is unchanged.
 */
const SQLITE_NUMERIC_TEXT = 2

export const createStatements = (dialect: Dialect, tables: ReadonlyArray<TableSpec>): ReadonlyArray<string> => {
  const out = [`CREATE TABLE IF NOT EXISTS ${META_TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL)`]
  for (const t of tables) {
    if (t.view !== undefined) continue
    // Only key columns are NOT NULL: a processor's missing value shows as null rather than failing
    // the whole block (the index keeps up; the processor's test catches the bug).
    const columns = t.columns.map(
      (c) => `${quoteIdent(c.name)} ${dialect.columnType(c.type)}${t.primaryKey.includes(c.name) ? " NOT NULL" : ""}`
    )
    if (t.primaryKey.length > 0) columns.push(`PRIMARY KEY (${t.primaryKey.map(quoteIdent).join(", ")})`)
    out.push(
      `CREATE TABLE IF NOT EXISTS ${quoteIdent(t.name)} (${columns.join(", ")})${clusteredByKey(dialect, t) ? " WITHOUT ROWID" : ""}`
    )
    t.indexes.forEach((index, i) => {
      out.push(
        `CREATE INDEX IF NOT EXISTS ${quoteIdent(`${t.name}_i${i}`)} ON ${quoteIdent(t.name)} (${index.map(quoteIdent).join(", ")})`
      )
    })
  }
  for (const t of tables) if (t.view !== undefined) out.push(`CREATE VIEW ${quoteIdent(t.name)} AS ${t.view(dialect)}`)
  return out
}

/**
 * SQLite: whether `t`'s rows are stored in its primary key's order (`WITHOUT ROWID`) rather than
 * by a hidden row id with the key in an index beside them. A key with a text column (an address, a
 * table handle, an asset type: `account_transactions`, `current_*`) would otherwise be written
 * twice — once in the rows, once in the key's index — and that index is as large as the row for
 * `account_transactions` (seven rows per transfer) and a quarter of `current_table_items` (a row
 * per block). A key of integers only (`transaction_version`, `event_index`…) is appended in order
 * and its index is small, so those tables keep their row id (large rows, such as an event's data,
 * fit a row-id table's pages better).
 */
export const clusteredByKey = (dialect: Dialect, t: TableSpec): boolean =>
  dialect.name === "sqlite" &&
  t.primaryKey.some((k) => dialect.columnType(t.columns.find((c) => c.name === k)?.type ?? "String") === "TEXT")

export const dropStatements = (tables: ReadonlyArray<string>, views: ReadonlyArray<string>): ReadonlyArray<string> => [
  ...views.map((v) => `DROP VIEW IF EXISTS ${quoteIdent(v)}`),
  ...tables.map((t) => `DROP TABLE IF EXISTS ${quoteIdent(t)}`),
  `DROP TABLE IF EXISTS ${META_TABLE}`
]

/** What decides whether a stored index can be kept: the DDL and whatever else changes the rows (processor versions). */
export const schemaHash = (dialect: Dialect, tables: ReadonlyArray<TableSpec>, extra: string): string =>
  createHash("sha256")
    .update(
      JSON.stringify({
        format: STORE_FORMAT,
        ddl: createStatements(dialect, tables),
        extra,
        ...(dialect.name === "sqlite" ? { numericText: SQLITE_NUMERIC_TEXT } : {})
      })
    )
    .digest("hex")
