/**
 * An `effect/sql` `SqlClient` over libsql (SQLite with better-sqlite3's synchronous API, its native
 * build shipped in a registry package per platform, as lmdb's: `npm install` compiles nothing;
 * better-sqlite3 downloads its build from GitHub or compiles SQLite with node-gyp, and refuses
 * Node 21). effect 4 ships the SQLite plumbing — `makeSqliteAcquirers`, `makeCompilerSqlite` — but
 * no driver for Node 20 (`@effect/sql-sqlite-node` is still on effect 3). One connection,
 * serialised by a semaphore; statements are synchronous, prepared once and kept (bounded);
 * integers come back as JS `bigint` (exact i64).
 *
 * Durability: WAL with `synchronous = NORMAL` — a committed transaction survives the process being
 * killed (kill -9); only a power loss may take back the last ones, which the indexer then re-indexes
 * from the ledger.
 */

import * as Effect from "effect/Effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import * as Semaphore from "effect/Semaphore"
import * as Stream from "effect/Stream"
import * as SqlClient from "effect/sql/SqlClient"
import type { Connection } from "effect/sql/SqlConnection"
import { SqlError, UnknownError } from "effect/sql/SqlError"
import * as Statement from "effect/sql/Statement"
import Database from "libsql"

const STATEMENT_CACHE = 512
/**
 * Pages the write-ahead log may hold before a commit folds it into the database (SQLite's default:
 * 1,000). Under a flood the index commits a batch every few milliseconds, each rewriting the same
 * index pages; a checkpoint copies each page once however often it was logged, and syncs the file.
 * Every 4,000 pages (16 MB): the chain's throughput with the index on +3 % (1,774–1,777 transfers/s
 * against 1,716–1,725, interleaved, session 11); when the indexer goes quiet the log is emptied anyway.
 */
const WAL_AUTOCHECKPOINT_PAGES = 4000
/**
 * Bytes of write-ahead log kept after an automatic checkpoint: more than the checkpoint's 16 MB, so
 * that under load the log is rewritten in place from its start rather than cut and grown again after
 * every checkpoint (each extension allocates the file's blocks anew: with 1 MB kept, 1,563–1,859
 * transfers/s against 1,688–1,958, interleaved, session 11). The indexer's own checkpoint when it goes
 * quiet (`IndexerStore.settle`: TRUNCATE) still empties the file.
 */
const JOURNAL_SIZE_LIMIT = 24 << 20

const sqlError = (cause: unknown, operation: string) =>
  new SqlError({
    reason: new UnknownError({ cause, message: cause instanceof Error ? cause.message : String(cause), operation })
  })

export interface SqliteHandle {
  readonly client: SqlClient.SqlClient
  /** The database (for pragmas and the benchmark's counters). */
  readonly db: Database.Database
}

/** Opens `path` (`":memory:"` for a database that lives and dies with the process), closed with the scope. */
export const makeSqliteClient = (
  path: string,
  options: {
    /** A connection that only reads (`query_only`): another connection (thread) writes the file. */
    readonly reader?: boolean
    /**
     * Flush at checkpoints (default true: `synchronous = NORMAL`). False: `OFF`, never — a killed
     * process still loses nothing, a power loss may lose the file (the local chain's `--no-fsync`).
     */
    readonly fsync?: boolean | undefined
  } = {}
): Effect.Effect<SqliteHandle, SqlError, import("effect/Scope").Scope> =>
  Effect.gen(function* () {
    const db = yield* Effect.acquireRelease(
      Effect.try({
        try: () => {
          const db = new Database(path)
          db.defaultSafeIntegers(true)
          if (options.reader === true) db.pragma("query_only = ON")
          else if (path !== ":memory:") {
            db.pragma("journal_mode = WAL")
            db.pragma(options.fsync === false ? "synchronous = OFF" : "synchronous = NORMAL")
            // After a checkpoint the log is cut to `JOURNAL_SIZE_LIMIT` (the automatic one every
            // `WAL_AUTOCHECKPOINT_PAGES` under load) or to nothing (the indexer's own when it goes
            // quiet), not left at the largest it ever reached.
            db.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT}`)
            db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`)
          }
          // LIKE as Postgres has it (case-sensitive); _ilike lowers both sides.
          db.pragma("case_sensitive_like = ON")
          return db
        },
        catch: (e) => sqlError(e, "connect")
      }),
      (db) => Effect.sync(() => db.close())
    )
    const cache = new Map<string, Database.Statement>()
    const prepare = (sql: string): Database.Statement => {
      let statement = cache.get(sql)
      if (statement !== undefined) {
        cache.delete(sql)
        cache.set(sql, statement)
        return statement
      }
      statement = db.prepare(sql)
      cache.set(sql, statement)
      if (cache.size > STATEMENT_CACHE) cache.delete(cache.keys().next().value!)
      return statement
    }
    // The parameters go as one array: libsql binds an array positionally as it is, where spread
    // arguments (up to 30,000 for a batch's INSERT, `MAX_PARAMS`) are copied twice, into arguments and by its `flat()`.
    const run = (sql: string, params: ReadonlyArray<unknown>, raw: boolean): ReadonlyArray<any> => {
      const statement = prepare(sql)
      if (!statement.reader) {
        statement.run(params)
        return []
      }
      return statement.raw(raw).all(params)
    }
    const attempt = <A>(operation: string, f: () => A) => Effect.try({ try: f, catch: (e) => sqlError(e, operation) })

    const connection: Connection = {
      execute: (sql, params, transform) =>
        attempt("execute", () => {
          const rows = run(sql, params, false)
          return transform === undefined ? rows : transform(rows)
        }),
      executeRaw: (sql, params) => attempt("execute", () => run(sql, params, false)),
      executeStream: (sql, params, transform) =>
        Stream.suspend(() => {
          const rows = run(sql, params, false)
          return Stream.fromIterable(transform === undefined ? rows : transform(rows))
        }).pipe(Stream.catchCause((cause) => Stream.fail(sqlError(cause, "stream")))),
      executeValues: (sql, params) => attempt("execute", () => run(sql, params, true)),
      executeValuesUnprepared: (sql, params) => attempt("execute", () => run(sql, params, true)),
      executeUnprepared: (sql, params, transform) =>
        attempt("execute", () => {
          const rows = run(sql, params, false)
          return transform === undefined ? rows : transform(rows)
        })
    }
    const semaphore = yield* Semaphore.make(1)
    const acquirers = SqlClient.makeSqliteAcquirers({
      connection: Effect.succeed(connection),
      semaphore,
      isTransaction: () => db.inTransaction
    })
    const client = yield* SqlClient.make({
      ...acquirers,
      compiler: Statement.makeCompilerSqlite(),
      driver: "libsql",
      spanAttributes: [["db.system.name", "sqlite"]]
    }).pipe(Effect.provide(Reactivity.layer))
    return { client, db } satisfies SqliteHandle
  })
