/**
 * The `IndexerStore` service: the index's tables in a SQL database through `effect/sql` — embedded
 * SQLite (libsql: a file beside the ledger, or memory) by default, or a PostgreSQL server
 * given by URL (@effect/sql-pg). It creates the catalogue's schema (rebuilding it when its hash
 * changed), commits a batch of processor writes with the new position and every `processor_status`
 * row in **one transaction**, and runs the GraphQL compiler's read statements.
 */

import * as PgClient from "@effect/sql-pg/PgClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Reactivity from "effect/reactivity/Reactivity"
import type * as Scope from "effect/Scope"
import type * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { catalogueTables, tableNamed } from "../schema/index.js"
import type { TableSpec } from "../schema/TableSpec.js"
import { type Cell, type Dialect, postgresDialect, quoteIdent, sqliteDialect } from "./Dialect.js"
import { createStatements, dropStatements, META_TABLE, schemaHash } from "./ddl.js"
import { makeRowBinder, type RowBinder } from "./rowBinder.js"
import { makeSqliteClient } from "./sqliteClient.js"
import { type BatchUndo, makeUndoLog, UNDO_TABLES, type UndoPoint } from "./undoLog.js"
import { narrowColumns, upsertKind } from "./upsertKind.js"
import { attemptWrite, type CellRow, cellOf, keyOf, mergeUpsert, type StoreWrite, WriteError } from "./writes.js"

/** What an INSERT does on a key conflict: nothing, replace every non-key column, or only those no index names. */
type OnConflict = "nothing" | "update" | "narrow"

/** Where the index lives. */
export type IndexerStoreConfig =
  | {
      readonly _tag: "Sqlite"
      readonly path: string
      /** Flush at checkpoints (default true; `sqliteClient.ts`). */
      readonly fsync?: boolean | undefined
    }
  | { readonly _tag: "Postgres"; readonly url: string }

/** How far the index reaches: the last version whose rows are stored, its hash and block timestamp. */
export interface IndexPosition {
  readonly version: bigint
  readonly hash: string
  readonly timestampUsec: bigint
  readonly chainId: number
}

/** What reading the index needs (the GraphQL compiler's statements): a connection of its own is enough. */
export interface IndexReads {
  readonly dialect: Dialect
  /** `SQLite (path)` / `PostgreSQL (host/db)`, for the banner and readiness. */
  readonly description: string
  /** A read statement (the GraphQL compiler's: parameters only). */
  readonly select: (
    sql: string,
    params: ReadonlyArray<unknown>
  ) => Effect.Effect<ReadonlyArray<Record<string, unknown>>, SqlError>
}

export type { BatchUndo } from "./undoLog.js"

export interface IndexerStoreService extends IndexReads {
  /** The stored position, undefined for an empty index. */
  readonly position: Effect.Effect<IndexPosition | undefined, SqlError>
  /** Deletes every row (the index empty, its schema kept). */
  readonly reset: Effect.Effect<void, SqlError>
  /**
   * Writes `writes` (in order), the new `position` and a `processor_status` row per name, in one
   * transaction: either all of a batch is stored or none of it.
   */
  readonly commit: (
    writes: ReadonlyArray<StoreWrite>,
    position: IndexPosition,
    processorNames: ReadonlyArray<string>,
    undo?: BatchUndo | undefined
  ) => Effect.Effect<void, SqlError | WriteError>
  /** The undo points at or below `atMost`, newest first, at most `limit` of them. */
  readonly undoPoints: (atMost: bigint, limit: number) => Effect.Effect<ReadonlyArray<UndoPoint>, SqlError>
  /**
   * The index as it was at `point` (an undo point): every batch after it taken back, in one
   * transaction; `processor_status` and the position at the point's version.
   */
  readonly goBackTo: (point: UndoPoint) => Effect.Effect<void, SqlError | WriteError>
  /** Forgets the undo log (nothing will be taken back before the next batch recorded). */
  readonly dropUndo: Effect.Effect<void, SqlError>
  /**
   * The indexer has nothing to do for now (`followLedger` calls it once after a quiet moment that
   * follows a commit): SQLite folds its write-ahead log into the database file and empties the log,
   * so an idle chain's index files grow by its rows alone (each commit appends every page it
   * touched, whole, to the log: ~40 KB for an idle block's few rows). Nothing on PostgreSQL.
   */
  readonly settle: Effect.Effect<void, SqlError>
}

export interface IndexerStoreOptions {
  /** What besides the DDL makes a stored index current (`indexerSchemaExtra`). */
  readonly schemaExtra?: string | undefined
  /**
   * The processors whose `processor_status` rows a new (or reset) index starts with, at version −1
   * (nothing indexed yet): the table is never empty, so a client polling it (the SDK's
   * `waitForIndexer`) reads "not yet" while genesis is indexed rather than no row at all.
   */
  readonly processorNames?: ReadonlyArray<string> | undefined
  /** The newest undo points kept (`undoLog.ts`' `UNDO_POINTS_KEPT` by default). */
  readonly undoPointsKept?: number | undefined
}

/** An upsert's row as its cells, and the columns it names (the merge updates those). */
interface UpsertRow {
  readonly cells: CellRow
  readonly columns: ReadonlyArray<string>
}

interface ConvertedUpsert {
  readonly write: Extract<StoreWrite, { _tag: "Upsert" }>
  readonly table: TableSpec
  readonly rows: ReadonlyArray<UpsertRow>
}

/** Parameters per statement, under both stores' limits (SQLite 32,766; PostgreSQL 65,535). */
const MAX_PARAMS = 30_000

/**
 * `[start, size]` chunks covering `count` rows with sizes from a fixed set (powers of two up to
 * `max`): a statement's text depends on its row count, so a few sizes keep the few statements each
 * table needs prepared (a batch of 13 rows is 8 + 4 + 1, not a new 13-row statement).
 */
const chunks = (count: number, max: number): Array<readonly [number, number]> => {
  let top = 1
  while (top * 2 <= Math.min(max, 256)) top *= 2
  const out: Array<readonly [number, number]> = []
  let at = 0
  for (let size = top; at < count; ) {
    if (count - at >= size) {
      out.push([at, size])
      at += size
    } else size = Math.max(1, size / 2)
  }
  return out
}

const describeUrl = (url: string): string => {
  try {
    const u = new URL(url)
    return `PostgreSQL (${u.host}${u.pathname})`
  } catch {
    return "PostgreSQL"
  }
}

export const makeIndexerStore = (
  client: SqlClient.SqlClient,
  dialect: Dialect,
  description: string,
  options: IndexerStoreOptions & { readonly tables?: ReadonlyArray<TableSpec> } = {}
): Effect.Effect<IndexerStoreService, SqlError> =>
  Effect.gen(function* () {
    const tables = options.tables ?? catalogueTables
    /** The catalogue's tables and the store's own (`undoLog.ts`). */
    const storeTables = [...tables, ...UNDO_TABLES]
    const byName = options.tables === undefined ? tableNamed : (n: string) => tables.find((t) => t.name === n)
    const hash = schemaHash(dialect, storeTables, options.schemaExtra ?? "")
    const run = (sql: string, params: ReadonlyArray<unknown> = []) => client.unsafe(sql, params)
    const select = (sql: string, params: ReadonlyArray<unknown>) =>
      client.unsafe<Record<string, unknown>>(sql, params) as Effect.Effect<
        ReadonlyArray<Record<string, unknown>>,
        SqlError
      >

    const readMeta = Effect.gen(function* () {
      yield* run(`CREATE TABLE IF NOT EXISTS ${META_TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL)`)
      const rows = yield* select(`SELECT key, value FROM ${META_TABLE}`, [])
      return new Map(rows.map((r) => [String(r.key), String(r.value)]))
    })
    const putMeta = (entries: ReadonlyArray<readonly [string, string]>) =>
      Effect.forEach(
        entries,
        ([k, v]) =>
          run(
            `INSERT INTO ${META_TABLE} (key, value) VALUES (${dialect.placeholder(1)}, ${dialect.placeholder(2)}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
            [k, v]
          ),
        { discard: true }
      )

    const recreate = (previous: Map<string, string>) =>
      client.withTransaction(
        Effect.gen(function* () {
          const oldTables: Array<string> = JSON.parse(previous.get("tables") ?? "[]")
          const oldViews: Array<string> = JSON.parse(previous.get("views") ?? "[]")
          const views = storeTables.filter((t) => t.view !== undefined).map((t) => t.name)
          const plain = storeTables.filter((t) => t.view === undefined).map((t) => t.name)
          for (const s of dropStatements([...new Set([...oldTables, ...plain])], [...new Set([...oldViews, ...views])]))
            yield* run(s)
          for (const s of createStatements(dialect, storeTables)) yield* run(s)
          yield* initialStatus
          yield* putMeta([
            ["schema", hash],
            ["tables", JSON.stringify(plain)],
            ["views", JSON.stringify(views)]
          ])
        })
      )

    const position = Effect.map(readMeta, (m): IndexPosition | undefined =>
      m.get("version") === undefined
        ? undefined
        : {
            version: BigInt(m.get("version")!),
            hash: m.get("hash") ?? "",
            timestampUsec: BigInt(m.get("timestamp") ?? "0"),
            chainId: Number(m.get("chain_id") ?? "0")
          }
    )

    // The write path's bodies are `Effect.fnUntraced` generator functions made once per store, not
    // `Effect.gen` bodies made anew per batch (docs/architecture.md, "Hot loops live in functions made once").

    /** The stored rows of `keys` (cells by column), by key. */
    const storedRows = Effect.fnUntraced(function* (t: TableSpec, keys: ReadonlyArray<CellRow>) {
      const out = new Map<string, CellRow>()
      const pk = t.primaryKey.map((c) => t.columns.find((x) => x.name === c)!)
      for (const [i, size] of chunks(keys.length, Math.floor(MAX_PARAMS / pk.length))) {
        const chunk = keys.slice(i, i + size)
        const params: unknown[] = []
        const tuples = chunk.map((row) => {
          const cells = pk.map((c) => {
            params.push(dialect.encode(row[c.name] ?? null, c.type))
            return dialect.param(dialect.placeholder(params.length), c.type)
          })
          return pk.length === 1 ? cells[0] : `(${cells.join(", ")})`
        })
        const lhs = pk.length === 1 ? quoteIdent(pk[0]!.name) : `(${pk.map((c) => quoteIdent(c.name)).join(", ")})`
        const rhs = pk.length === 1 ? `(${tuples.join(", ")})` : `(VALUES ${tuples.join(", ")})`
        const rows = yield* select(
          `SELECT ${t.columns.map((c) => `${dialect.read(quoteIdent(c.name), c.type)} AS ${quoteIdent(c.name)}`).join(", ")} FROM ${quoteIdent(t.name)} WHERE ${lhs} IN ${rhs}`,
          params
        )
        for (const r of rows) {
          const cells: CellRow = {}
          for (const c of t.columns) cells[c.name] = dialect.decode(r[c.name], c.type)
          out.set(keyOf(t, cells), cells)
        }
      }
      return out
    })

    /**
     * The INSERT statement of `size` full rows of `t` (on a key conflict: nothing, or every non-key
     * column replaced), built once per table, conflict rule and size (`chunks` keeps the sizes few).
     */
    const insertSql = new Map<string, string>()
    const insertStatement = (t: TableSpec, size: number, onConflict: OnConflict): string => {
      const cacheKey = `${t.name}\u0000${onConflict}\u0000${size}`
      const known = insertSql.get(cacheKey)
      if (known !== undefined) return known
      const columns = t.columns
      const set =
        onConflict === "nothing"
          ? []
          : onConflict === "narrow"
            ? narrowColumns(t)
            : columns.filter((c) => !t.primaryKey.includes(c.name)).map((c) => c.name)
      const conflict =
        set.length === 0
          ? `ON CONFLICT (${t.primaryKey.map(quoteIdent).join(", ")}) DO NOTHING`
          : `ON CONFLICT (${t.primaryKey.map(quoteIdent).join(", ")}) DO UPDATE SET ${set
              .map((c) => `${quoteIdent(c)} = excluded.${quoteIdent(c)}`)
              .join(", ")}`
      let n = 0
      const values = Array.from(
        { length: size },
        () => `(${columns.map((c) => dialect.param(dialect.placeholder(++n), c.type)).join(", ")})`
      )
      const sql = `INSERT INTO ${quoteIdent(t.name)} (${columns.map((c) => quoteIdent(c.name)).join(", ")}) VALUES ${values.join(", ")} ${conflict}`
      insertSql.set(cacheKey, sql)
      return sql
    }

    /** The parameters of rows `i` to `i + size` of `rows` (cells), in `t`'s column order. */
    const cellRowParams = (t: TableSpec, rows: ReadonlyArray<CellRow>, i: number, size: number): unknown[] => {
      const columns = t.columns
      const params: unknown[] = new Array(size * columns.length)
      let p = 0
      for (let r = i; r < i + size; r++) {
        const row = rows[r]!
        for (const c of columns) params[p++] = dialect.encode(row[c.name] ?? null, c.type)
      }
      return params
    }

    /**
     * INSERT of full rows; on a key conflict: nothing, every non-key column replaced, or (`narrow`)
     * those no index names (`upsertKind.ts`).
     */
    const writeRows = Effect.fnUntraced(function* (t: TableSpec, rows: ReadonlyArray<CellRow>, onConflict: OnConflict) {
      if (rows.length === 0) return
      for (const [i, size] of chunks(rows.length, Math.floor(MAX_PARAMS / t.columns.length)))
        yield* run(insertStatement(t, size, onConflict), cellRowParams(t, rows, i, size))
    })

    /**
     * The parameters of a processor's rows `i` to `i + size` (checked by `checkRow`), each value
     * turned into its cell and straight into the statement's parameters by the table's binder
     * (`rowBinder.ts`): no cell row in between (inserts are most of a batch's rows, and each such
     * row was garbage a moment later). Throws `WriteError` for a value of the wrong kind.
     */
    const rowBinders = new Map<string, RowBinder>()
    const processorRowParams = (
      t: TableSpec,
      rows: ReadonlyArray<Readonly<Record<string, unknown>>>,
      i: number,
      size: number
    ): unknown[] => {
      let bind = rowBinders.get(t.name)
      if (bind === undefined) rowBinders.set(t.name, (bind = makeRowBinder(t, dialect)))
      const params: unknown[] = new Array(size * t.columns.length)
      bind(rows, i, size, params)
      return params
    }

    /** `writeRows` of a processor's rows (`processorRowParams`); a key already stored keeps its row. */
    const insertProcessorRows = Effect.fnUntraced(function* (
      t: TableSpec,
      rows: ReadonlyArray<Readonly<Record<string, unknown>>>
    ) {
      if (rows.length === 0) return
      for (const [i, size] of chunks(rows.length, Math.floor(MAX_PARAMS / t.columns.length))) {
        const params = yield* attemptWrite(() => processorRowParams(t, rows, i, size))
        yield* run(insertStatement(t, size, "nothing"), params)
      }
    })

    const tableOf = (name: string): TableSpec => {
      const t = byName(name)
      if (t === undefined || t.view !== undefined || t.primaryKey.length === 0)
        throw new WriteError(`no writable table ${name} in the catalogue`)
      return t
    }

    /** Each table's columns by name (a row's keys are looked up once per cell). */
    const columnMaps = new Map<string, ReadonlyMap<string, TableSpec["columns"][number]>>()
    const columnsOf = (t: TableSpec) => {
      let m = columnMaps.get(t.name)
      if (m === undefined) columnMaps.set(t.name, (m = new Map(t.columns.map((c) => [c.name, c]))))
      return m
    }

    /** A processor's row names only columns of `t` and has every key column (throws `WriteError`). */
    const checkRow = (t: TableSpec, row: Readonly<Record<string, unknown>>): void => {
      const byName = columnsOf(t)
      for (const k in row) if (!byName.has(k)) throw new WriteError(`${t.name} has no column ${k}`)
      for (const k of t.primaryKey)
        if ((row[k] ?? null) === null) throw new WriteError(`${t.name}: key column ${k} is missing`)
    }

    const toCells = (t: TableSpec, row: Readonly<Record<string, unknown>>): CellRow => {
      const cells: CellRow = {}
      const byName = columnsOf(t)
      for (const k in row) {
        const v = row[k]
        const column = byName.get(k)
        if (column === undefined) throw new WriteError(`${t.name} has no column ${k}`)
        cells[k] = cellOf(v as never, column.type, () => `${t.name}.${k}`)
      }
      for (const k of t.primaryKey)
        if ((cells[k] ?? null) === null) throw new WriteError(`${t.name}: key column ${k} is missing`)
      return cells
    }

    /**
     * A batch's writes by kind: each insert's rows (checked) appended to its table's in `inserts`;
     * the upserts returned, each row as its cells and the columns it names (an upsert's merge
     * updates those). Throws `WriteError`.
     */
    const sortWrites = (
      writes: ReadonlyArray<StoreWrite>,
      inserts: Map<string, Array<Readonly<Record<string, unknown>>>>
    ): Array<ConvertedUpsert> => {
      const out: Array<ConvertedUpsert> = []
      for (const w of writes) {
        const t = tableOf(w.table)
        if (w._tag === "Insert") {
          let rows = inserts.get(t.name)
          if (rows === undefined) inserts.set(t.name, (rows = []))
          for (const r of w.rows) {
            checkRow(t, r)
            rows.push(r)
          }
        } else {
          const rows: UpsertRow[] = []
          for (const r of w.rows) rows.push({ cells: toCells(t, r), columns: Object.keys(r) })
          out.push({ write: w, table: t, rows })
        }
      }
      return out
    }

    /**
     * The rows each table gets from a batch's writes, merged (upserts) and de-duplicated (inserts);
     * and each upserted key's stored row before the batch (none: not stored).
     */
    const plan = Effect.fnUntraced(function* (writes: ReadonlyArray<StoreWrite>) {
      // Inserts go straight to their table's rows, in order: a key written twice (in the batch,
      // or stored before) keeps its first row — the INSERT's `ON CONFLICT DO NOTHING` sees to
      // that in both databases, so no key needs computing here.
      const inserts = new Map<string, Array<Readonly<Record<string, unknown>>>>()
      const converted = yield* attemptWrite(() => sortWrites(writes, inserts))
      // Stored rows of every upserted key, one query per table.
      const upsertKeys = new Map<string, Map<string, CellRow>>()
      for (const c of converted) {
        const keys = upsertKeys.get(c.table.name) ?? new Map<string, CellRow>()
        for (const r of c.rows) keys.set(keyOf(c.table, r.cells), r.cells)
        upsertKeys.set(c.table.name, keys)
      }
      const current = new Map<string, Map<string, CellRow>>()
      for (const [name, keys] of upsertKeys) current.set(name, yield* storedRows(tableOf(name), [...keys.values()]))
      // Each upserted key's stored row before the batch: the undo log's, and what decides how
      // much of a merged row is written (`upsertKind.ts`).
      const priors = new Map<string, ReadonlyMap<string, CellRow>>()
      for (const [name, stored] of current) priors.set(name, new Map(stored))
      const upserts = new Map<string, Map<string, CellRow>>()
      for (const c of converted) {
        const stored = current.get(c.table.name)!
        const m = upserts.get(c.table.name) ?? new Map<string, CellRow>()
        for (const r of c.rows) {
          const k = keyOf(c.table, r.cells)
          const merged = mergeUpsert(c.write, c.table, stored.get(k), r.cells, r.columns)
          if (merged === undefined) continue
          c.table.derive?.(merged)
          stored.set(k, merged)
          m.set(k, merged)
        }
        upserts.set(c.table.name, m)
      }
      return { inserts, upserts, priors }
    })

    const undoLog = makeUndoLog({
      dialect,
      tables,
      run,
      select,
      writeRows,
      tableOf,
      putMeta,
      withTransaction: client.withTransaction,
      pointsKept: options.undoPointsKept
    })

    /** A batch's rows, its undo point, the processors' status and the position: `commit`'s transaction. */
    const writeBatch = Effect.fnUntraced(function* (
      writes: ReadonlyArray<StoreWrite>,
      at: IndexPosition,
      processorNames: ReadonlyArray<string>,
      undo: BatchUndo | undefined
    ) {
      const { inserts, upserts, priors } = yield* plan(writes)
      for (const [name, rows] of inserts) yield* insertProcessorRows(tableOf(name), rows)
      for (const [name, rows] of upserts) {
        const t = tableOf(name)
        const before = priors.get(name)
        const full: CellRow[] = []
        const narrow: CellRow[] = []
        for (const [k, row] of rows) {
          const kind = upsertKind(t, before?.get(k), row)
          if (kind === "full") full.push(row)
          else if (kind === "narrow") narrow.push(row)
        }
        yield* writeRows(t, full, "update")
        yield* writeRows(t, narrow, "narrow")
      }
      if (undo !== undefined) yield* undoLog.record(undo, inserts, upserts, priors)
      const now = BigInt(Date.now()) * 1000n
      yield* writeRows(
        tableOf("processor_status"),
        processorNames.map(
          (processor): Record<string, Cell> => ({
            processor,
            last_success_version: at.version.toString(),
            last_updated: now,
            last_transaction_timestamp: at.timestampUsec
          })
        ),
        "update"
      )
      yield* writeRows(tableOf("ledger_infos"), [{ chain_id: String(at.chainId) }], "nothing")
      yield* putMeta([
        ["version", at.version.toString()],
        ["hash", at.hash],
        ["timestamp", at.timestampUsec.toString()],
        ["chain_id", String(at.chainId)]
      ])
    })

    const commit = (
      writes: ReadonlyArray<StoreWrite>,
      at: IndexPosition,
      processorNames: ReadonlyArray<string>,
      undo?: BatchUndo | undefined
    ) => client.withTransaction(writeBatch(writes, at, processorNames, undo))

    /** Each processor's `processor_status` row as before its first batch (version -1). */
    const initialStatus = Effect.suspend(() => {
      const status = tables.find((t) => t.name === "processor_status")
      if (status === undefined || (options.processorNames?.length ?? 0) === 0) return Effect.void
      const now = BigInt(Date.now()) * 1000n
      return writeRows(
        status,
        options.processorNames!.map(
          (processor): Record<string, Cell> => ({
            processor,
            last_success_version: "-1",
            last_updated: now,
            last_transaction_timestamp: null
          })
        ),
        "update"
      )
    })

    /**
     * Every row deleted, the schema kept (this code's: `recreate` ran at open otherwise): what a
     * reset needs (a rewind of the chain, an index of another ledger). Dropping and creating the
     * tables instead changed SQLite's schema, so every prepared statement — the batches' INSERTs of
     * up to 30,000 parameters — was prepared again afterwards: a test suite's revert cost the index
     * 24–71 ms of DDL and its next commit 14–83 ms more (session 36).
     */
    const clear = client.withTransaction(
      Effect.gen(function* () {
        const plain = storeTables.filter((t) => t.view === undefined).map((t) => quoteIdent(t.name))
        // SQLite empties a table without a WHERE at once (its truncate optimisation); PostgreSQL's
        // DELETE would visit every row, its TRUNCATE does not (and is transactional there).
        if (dialect.name === "sqlite") for (const t of plain) yield* run(`DELETE FROM ${t}`)
        else if (plain.length > 0) yield* run(`TRUNCATE ${plain.join(", ")}`)
        yield* initialStatus
        yield* run(`DELETE FROM ${META_TABLE} WHERE key IN ('version', 'hash', 'timestamp', 'chain_id')`)
      })
    )

    // (Here, below every helper `recreate` uses.)
    const meta = yield* readMeta
    if (meta.get("schema") !== hash) yield* recreate(meta)

    return {
      dialect,
      description,
      position,
      reset: clear,
      commit,
      undoPoints: undoLog.points,
      goBackTo: undoLog.goBackTo,
      dropUndo: undoLog.drop,
      // TRUNCATE: the log copied into the database, then cut to zero bytes. A reader in the middle
      // of a read (the GraphQL server's connection) makes it stop short, harmlessly: the next one
      // finishes it.
      settle: dialect.name === "sqlite" ? Effect.asVoid(run("PRAGMA wal_checkpoint(TRUNCATE)")) : Effect.void,
      select
    } satisfies IndexerStoreService
  })

/** The dialect of the store of `config`. */
export const dialectOf = (config: IndexerStoreConfig): Dialect =>
  config._tag === "Sqlite" ? sqliteDialect : postgresDialect

/** `SQLite (path)` / `PostgreSQL (host/db)`: for the banner and readiness. */
export const describeStore = (config: IndexerStoreConfig): string =>
  config._tag === "Postgres"
    ? describeUrl(config.url)
    : config.path === ":memory:"
      ? "SQLite (in memory)"
      : `SQLite (${config.path})`

/** A client of the store of `config` (SQLite: `reader` opens a connection that never writes). */
const clientOf = (config: IndexerStoreConfig, role: "writer" | "reader") =>
  Effect.gen(function* () {
    if (config._tag === "Sqlite") {
      const { client } = yield* makeSqliteClient(config.path, { reader: role === "reader", fsync: config.fsync })
      return { client, dialect: sqliteDialect, description: describeStore(config) }
    }
    const client = yield* PgClient.make({
      url: Redacted.make(config.url),
      maxConnections: 4
    }).pipe(Effect.provide(Reactivity.layer))
    return { client, dialect: postgresDialect, description: describeStore(config) }
  }).pipe(Effect.mapError((e) => new Error(`the indexer's database: ${e.message}`)))

/**
 * Reads of the index of `config` over a connection of their own, which never writes (the GraphQL
 * server's, on the chain's thread, while the indexer's worker thread writes through another).
 * SQLite in WAL mode lets a reader read the last committed batch while the writer writes the next.
 */
export const openIndexReads = (config: IndexerStoreConfig): Effect.Effect<IndexReads, Error, Scope.Scope> =>
  Effect.map(clientOf(config, "reader"), ({ client, dialect, description }) => ({
    dialect,
    description,
    select: (sql: string, params: ReadonlyArray<unknown>) =>
      client.unsafe<Record<string, unknown>>(sql, params) as Effect.Effect<
        ReadonlyArray<Record<string, unknown>>,
        SqlError
      >
  }))

export class IndexerStore extends Context.Service<IndexerStore, IndexerStoreService>()(
  "movenode/indexer/IndexerStore"
) {
  static readonly layer = (
    config: IndexerStoreConfig,
    options: IndexerStoreOptions = {}
  ): Layer.Layer<IndexerStore, Error> =>
    Layer.effect(
      IndexerStore,
      Effect.flatMap(clientOf(config, "writer"), ({ client, dialect, description }) =>
        makeIndexerStore(client, dialect, description, options).pipe(
          Effect.mapError((e) => new Error(`the indexer's database: ${e.message}`))
        )
      )
    )
}
