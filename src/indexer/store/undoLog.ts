/**
 * The index's undo log: what lets it go back with the chain (a test suite's revert) in time
 * proportional to the versions reverted, not to the chain's length.
 *
 * Rebuilding the index from genesis after every revert cost 0.3–1 ms a version: 0.5 s a revert on a
 * chain of 6,000 versions (an hour of a local chain's idle blocks), and more each test. Instead,
 * once the chain has taken a snapshot (`Indexer`: the chain's `Marked` events), each batch the index
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
import * as Effect from "effect/Effect"
import type { SqlError } from "effect/sql/SqlError"
import { table, type TableSpec } from "../schema/TableSpec.js"
import { type Cell, type Dialect, quoteIdent } from "./Dialect.js"
import { attemptWrite, type CellRow } from "./writes.js"

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

/**
 * A batch's undo record: the point it ends at, and the point before it (the position it starts
 * from, recorded too when the log has none yet).
 */
export interface BatchUndo {
  readonly from: UndoPoint | undefined
  readonly to: UndoPoint
}

/** What the undo log needs of its store (`IndexerStore`'s own helpers). */
export interface UndoLogStore {
  readonly dialect: Dialect
  /** The catalogue's tables (the undo log's own are apart). */
  readonly tables: ReadonlyArray<TableSpec>
  readonly run: (sql: string, params?: ReadonlyArray<unknown>) => Effect.Effect<unknown, SqlError>
  readonly select: (
    sql: string,
    params: ReadonlyArray<unknown>
  ) => Effect.Effect<ReadonlyArray<Record<string, unknown>>, SqlError>
  /** INSERT of full rows; on a key conflict: nothing, or every non-key column replaced. */
  readonly writeRows: (
    t: TableSpec,
    rows: ReadonlyArray<CellRow>,
    onConflict: "nothing" | "update"
  ) => Effect.Effect<void, SqlError>
  /** The catalogue's writable table `name` (throws `WriteError`). */
  readonly tableOf: (name: string) => TableSpec
  readonly putMeta: (entries: ReadonlyArray<readonly [string, string]>) => Effect.Effect<void, SqlError>
  readonly withTransaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | SqlError, R>
  /** The newest points kept (`UNDO_POINTS_KEPT` by default; tests lower it). */
  readonly pointsKept?: number | undefined
}

/**
 * The newest undo points kept, with what going back to them needs; older ones are forgotten (a
 * rewind below them rebuilds the index). A test suite's revert goes back a few batches — to its
 * snapshot, taken after its set-up, with each test's blocks reverted — so the log holds far fewer;
 * a suite that takes a snapshot and then runs on without reverting would otherwise keep a prior
 * row for every upsert of every batch (a few hundred bytes each) for as long as it runs.
 */
export const UNDO_POINTS_KEPT = 10_000
/** Batches recorded between two prunings of the log. */
const PRUNE_EVERY = 256

/** The undo log over a store: record a batch's undo, list points, go back to one, forget it all. */
export const makeUndoLog = (store: UndoLogStore) => {
  const { dialect, tables, run, select, writeRows, tableOf, putMeta, withTransaction } = store
  const pointsKept = Math.max(1, Math.floor(store.pointsKept ?? UNDO_POINTS_KEPT))
  let recordedSincePrune = 0
  const undoPointCells = (p: UndoPoint): CellRow => ({
    version: p.version.toString(),
    hash: p.hash,
    timestamp_usec: p.timestampUsec.toString(),
    accumulator: p.accumulator
  })

  /**
   * The batch's undo record: its point (and the one before it, when the log has none yet), and
   * the prior row of every key its upserts wrote. A batch inserting into a table whose rows name
   * no version (`insertedAtColumn`) cannot be taken back: the log starts again after it.
   */
  const record = (
    undo: BatchUndo,
    inserts: ReadonlyMap<string, unknown>,
    upserts: ReadonlyMap<string, ReadonlyMap<string, CellRow>>,
    priors: ReadonlyMap<string, ReadonlyMap<string, CellRow>>
  ) =>
    Effect.gen(function* () {
      const undoable = [...inserts.keys()].every((name) => insertedAtColumn(tableOf(name)) !== undefined)
      if (!undoable) yield* drop
      else if (undo.from !== undefined) yield* writeRows(UNDO_POINTS_TABLE, [undoPointCells(undo.from)], "nothing")
      yield* writeRows(UNDO_POINTS_TABLE, [undoPointCells(undo.to)], "update")
      if (!undoable) return
      const version = undo.to.version.toString()
      const rows: CellRow[] = []
      for (const [name, written] of upserts) {
        const t = tableOf(name)
        const before = priors.get(name)
        for (const [k, row] of written) {
          const prior = before?.get(k)
          rows.push({
            version,
            table_name: name,
            row_key: cellsToJson(t.primaryKey.map((c) => row[c] ?? null)),
            prior: prior === undefined ? null : cellsToJson(prior)
          })
        }
      }
      yield* writeRows(UNDO_ROWS_TABLE, rows, "update")
      if (++recordedSincePrune >= Math.min(PRUNE_EVERY, pointsKept)) {
        recordedSincePrune = 0
        yield* prune
      }
    })

  /**
   * Forgets all but the newest `pointsKept` points: the oldest kept is the lowest one can go back
   * to, so the prior rows of batches up to it (needed only to go below it) go too.
   */
  const prune = Effect.gen(function* () {
    const oldestKept = yield* select(
      `SELECT ${dialect.read(quoteIdent("version"), "bigint")} AS ${quoteIdent("version")} FROM ${quoteIdent(UNDO_POINTS_TABLE.name)} ORDER BY ${quoteIdent("version")} DESC LIMIT 1 OFFSET ${pointsKept - 1}`,
      []
    )
    if (oldestKept.length === 0) return
    const cutoff = versionParam(BigInt(String(dialect.decode(oldestKept[0]!.version, "bigint"))))
    yield* run(
      `DELETE FROM ${quoteIdent(UNDO_POINTS_TABLE.name)} WHERE ${quoteIdent("version")} < ${bigintPlaceholder(1)}`,
      [cutoff]
    )
    yield* run(
      `DELETE FROM ${quoteIdent(UNDO_ROWS_TABLE.name)} WHERE ${quoteIdent("version")} <= ${bigintPlaceholder(1)}`,
      [cutoff]
    )
  })

  const drop = Effect.gen(function* () {
    yield* run(`DELETE FROM ${quoteIdent(UNDO_ROWS_TABLE.name)}`)
    yield* run(`DELETE FROM ${quoteIdent(UNDO_POINTS_TABLE.name)}`)
  })

  const versionParam = (v: bigint) => dialect.encode(v.toString(), "bigint")
  const bigintPlaceholder = (i: number) => dialect.param(dialect.placeholder(i), "bigint")

  const points = (atMost: bigint, limit: number) =>
    Effect.map(
      select(
        `SELECT ${["version", "hash", "timestamp_usec", "accumulator"].map((c) => `${dialect.read(quoteIdent(c), c === "version" || c === "timestamp_usec" ? "bigint" : "String")} AS ${quoteIdent(c)}`).join(", ")} FROM ${quoteIdent(UNDO_POINTS_TABLE.name)} WHERE ${quoteIdent("version")} <= ${bigintPlaceholder(1)} ORDER BY ${quoteIdent("version")} DESC LIMIT ${Math.max(0, Math.floor(limit))}`,
        [versionParam(atMost)]
      ),
      (rows): ReadonlyArray<UndoPoint> =>
        rows.map((r) => ({
          version: BigInt(String(dialect.decode(r.version, "bigint"))),
          hash: String(r.hash),
          timestampUsec: BigInt(String(dialect.decode(r.timestamp_usec, "bigint"))),
          accumulator: String(r.accumulator)
        }))
    )

  /** Deletes the row of `t` whose primary key's cells are `key`. */
  const deleteByKey = (t: TableSpec, key: ReadonlyArray<Cell>) => {
    const columns = t.primaryKey.map((c) => t.columns.find((x) => x.name === c)!)
    return run(
      `DELETE FROM ${quoteIdent(t.name)} WHERE ${columns.map((c, i) => `${quoteIdent(c.name)} = ${dialect.param(dialect.placeholder(i + 1), c.type)}`).join(" AND ")}`,
      columns.map((c, i) => dialect.encode(key[i] ?? null, c.type))
    )
  }

  const goBackTo = (point: UndoPoint) =>
    withTransaction(
      Effect.gen(function* () {
        const after = versionParam(point.version)
        // Newest batch first: a key written by several batches ends as it was before the oldest.
        const undone = yield* select(
          `SELECT table_name, row_key, prior FROM ${quoteIdent(UNDO_ROWS_TABLE.name)} WHERE ${quoteIdent("version")} > ${bigintPlaceholder(1)} ORDER BY ${quoteIdent("version")} DESC`,
          [after]
        )
        for (const r of undone) {
          const t = yield* attemptWrite(() => tableOf(String(r.table_name)))
          if (r.prior === null || r.prior === undefined)
            yield* deleteByKey(t, cellsFromJson<ReadonlyArray<Cell>>(String(r.row_key)))
          else yield* writeRows(t, [cellsFromJson<CellRow>(String(r.prior))], "update")
        }
        for (const t of tables) {
          const column = t.view === undefined ? insertedAtColumn(t) : undefined
          if (column === undefined) continue
          yield* run(`DELETE FROM ${quoteIdent(t.name)} WHERE ${quoteIdent(column)} > ${bigintPlaceholder(1)}`, [after])
        }
        for (const t of UNDO_TABLES)
          yield* run(`DELETE FROM ${quoteIdent(t.name)} WHERE ${quoteIdent("version")} > ${bigintPlaceholder(1)}`, [
            after
          ])
        if (tables.some((t) => t.name === "processor_status"))
          yield* run(
            `UPDATE processor_status SET last_success_version = ${bigintPlaceholder(1)}, last_updated = ${dialect.param(dialect.placeholder(2), "timestamp")}, last_transaction_timestamp = ${dialect.param(dialect.placeholder(3), "timestamp")}`,
            [
              after,
              dialect.encode(BigInt(Date.now()) * 1000n, "timestamp"),
              dialect.encode(point.timestampUsec, "timestamp")
            ]
          )
        yield* putMeta([
          ["version", point.version.toString()],
          ["hash", point.hash],
          ["timestamp", point.timestampUsec.toString()]
        ])
      })
    )

  return { record, points, goBackTo, drop }
}
