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
    out.push(`CREATE TABLE IF NOT EXISTS ${quoteIdent(t.name)} (${columns.join(", ")})`)
    t.indexes.forEach((index, i) => {
      out.push(
        `CREATE INDEX IF NOT EXISTS ${quoteIdent(`${t.name}_i${i}`)} ON ${quoteIdent(t.name)} (${index.map(quoteIdent).join(", ")})`
      )
    })
  }
  for (const t of tables) if (t.view !== undefined) out.push(`CREATE VIEW ${quoteIdent(t.name)} AS ${t.view(dialect)}`)
  return out
}

export const dropStatements = (tables: ReadonlyArray<string>, views: ReadonlyArray<string>): ReadonlyArray<string> => [
  ...views.map((v) => `DROP VIEW IF EXISTS ${quoteIdent(v)}`),
  ...tables.map((t) => `DROP TABLE IF EXISTS ${quoteIdent(t)}`),
  `DROP TABLE IF EXISTS ${META_TABLE}`
]

/** What decides whether a stored index can be kept: the DDL and whatever else changes the rows (processor versions). */
export const schemaHash = (dialect: Dialect, tables: ReadonlyArray<TableSpec>, extra: string): string =>
  createHash("sha256")
    .update(JSON.stringify({ format: STORE_FORMAT, ddl: createStatements(dialect, tables), extra }))
    .digest("hex")
