/**
 * The index's undo log: what lets it go back with the chain (a test suite's revert) in time
 * proportional to the versions reverted, not to the chain's length.
 *
 * Rebuilding the index from genesis after every revert cost 0.3–1 ms a version: 0.5 s a revert on a
 * chain of 6,000 versions (an hour of a local chain's idle blocks), and more each test. Instead,
 * while the chain holds snapshots (`Indexer`: the chain's `Marked` events), each batch the index
 * commits also records how to take it back:
 *
 *  - an **undo point** (`indexer_undo_points`): the batch's last version with its transaction's hash,
 *    block timestamp and the ledger's transaction accumulator root there. The root commits to the
 *    whole history up to that version, so a point whose root the ledger still has after a rewind
 *    is a version at which the index and the ledger agree on everything before it;
 *  - the **prior rows** (`indexer_undo_rows`) of every row an upsert changed (the `current_*`
 *    tables): the stored row before the batch, or none when the batch created it.
 *
 * Rows of the other tables are inserted once and never changed (an `Insert` keeps a key's first
 * row), and each names the version that wrote it (`insertedAtColumn`): going back to a point deletes
 * those above it and puts the prior rows back, newest batch first. A table written by inserts with
 * no such column cannot be taken back that way; a batch writing one starts the log afresh (no table
 * of the catalogue is one today).
 *
 * Both tables are the store's own, as `indexer_meta`: not in the GraphQL catalogue.
 */
import type { Cell } from "./Dialect.js"
import { table, type TableSpec } from "../schema/TableSpec.js"

export const UNDO_POINTS_TABLE: TableSpec = table(
  "indexer_undo_points",
  "The batch ends the index can go back to without re-indexing (the store's own).",
  { version: "bigint", hash: "String", timestamp_usec: "bigint", accumulator: "String" },
  { primaryKey: ["version"] }
)

export const UNDO_ROWS_TABLE: TableSpec = table(
  "indexer_undo_rows",
  "The rows upserts changed, as they were before the batch ending at `version` (the store's own).",
  { version: "bigint", table_name: "String", row_key: "String", prior: "String?" },
  { primaryKey: ["version", "table_name", "row_key"] }
)

export const UNDO_TABLES: ReadonlyArray<TableSpec> = [UNDO_POINTS_TABLE, UNDO_ROWS_TABLE]

/** A batch end the index can go back to. */
export interface UndoPoint {
  readonly version: bigint
  /** The transaction's hash there (`0x…`: the store's position). */
  readonly hash: string
  readonly timestampUsec: bigint
  /** The ledger's transaction accumulator root after that version (`0x…`). */
  readonly accumulator: string
}

/**
 * The column naming the version that inserted a row of `t`, for tables whose rows are only ever
 * inserted: the version in its primary key (`transaction_version`, `version`: a history table), or
 * `first_transaction_version` (a row kept from its first writer). Undefined otherwise.
 */
export const insertedAtColumn = (t: TableSpec): string | undefined => {
  for (const c of ["transaction_version", "version"]) if (t.primaryKey.includes(c)) return c
  return t.columns.some((c) => c.name === "first_transaction_version") ? "first_transaction_version" : undefined
}

const BIGINT = "$bigint"

/**
 * Cells as JSON text: a bigint cell (a timestamp) as `{"$bigint": "digits"}` (JSON has no bigint;
 * no column name starts with `$`, so a row object is never taken for one).
 */
export const cellsToJson = (cells: ReadonlyArray<Cell> | Readonly<Record<string, Cell>>): string =>
  JSON.stringify(cells, (_k, v: unknown) => (typeof v === "bigint" ? { [BIGINT]: v.toString() } : v))

/** The cells of `cellsToJson`'s text. */
export const cellsFromJson = <A>(text: string): A =>
  JSON.parse(text, (_k, v: unknown) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return v
    const digits = (v as Record<string, unknown>)[BIGINT]
    return typeof digits === "string" && Object.keys(v).length === 1 ? BigInt(digits) : v
  }) as A
