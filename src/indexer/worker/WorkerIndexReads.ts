/**
 * The index's reads for GraphQL, run on a worker thread of their own (`indexReadsWorker.ts`) when
 * the index is a SQLite file: the main thread plans a request and renders its answer (both bounded,
 * `graphql/plan.ts` and `execute.ts`), and only the statements go to the worker. A scan of a large
 * table then holds the worker, not the chain: measured on a 200,000-transaction index, twenty
 * aggregates with unindexed filters in one request took 0.55 s, and a view sent meanwhile waited
 * 0.45 s of it when they ran on the main thread (docs/benchmarks.md, session 33).
 *
 * Statements wait in the worker's queue, at most `MAX_WAITING` of them: past that a statement is
 * refused at once (the index is busy), so clients sending heavy queries faster than they are
 * answered cost a bounded queue. A statement is never given up once sent: libsql cannot interrupt a
 * running statement from another thread, and terminating the worker would not stop SQLite (the
 * thread runs on inside the native call until the statement ends). What bounds a statement is what
 * the compiler emits: selects over the catalogue's tables, their filters and relationships.
 */
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { Worker } from "node:worker_threads"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { SqlError, UnknownError } from "effect/sql/SqlError"
import { closeWorker } from "../../closeWorker.js"
import { describeStore, dialectOf, type IndexerStoreConfig, type IndexReads } from "../store/IndexerStore.js"
import type { FromIndexReadsWorker, IndexReadsWorkerData, ToIndexReadsWorker } from "./readsProtocol.js"

/** Statements sent to the worker and not yet answered, at most. */
export const MAX_WAITING = 256
const CLOSE_WAIT_MS = 5_000

/** The build's worker script beside this module (`dist/bin/indexReadsWorker.js`), if built. */
export const defaultIndexReadsWorkerUrl = (): URL | undefined => {
  const url = new URL("./indexReadsWorker.js", import.meta.url)
  return existsSync(fileURLToPath(url)) ? url : undefined
}

/** Whether `store` can be read from another thread than its writer's (a file, not `:memory:`). */
export const readableFromWorker = (store: IndexerStoreConfig): boolean =>
  store._tag === "Sqlite" && store.path !== ":memory:"

const sqlError = (message: string) =>
  new SqlError({ reason: new UnknownError({ cause: undefined, message, operation: "execute" }) })

type Resume = (effect: Effect.Effect<ReadonlyArray<Record<string, unknown>>, SqlError>) => void

/**
 * Reads of `store` through a worker thread started from `workerUrl` (again after it failed), closed
 * with the scope; at most `maxWaiting` statements in its queue (`MAX_WAITING`).
 */
export const openWorkerIndexReads = (
  store: IndexerStoreConfig,
  workerUrl: URL,
  maxWaiting: number = MAX_WAITING
): Effect.Effect<IndexReads, never, Scope.Scope> =>
  Effect.gen(function* () {
    let worker: Worker | undefined
    let nextId = 1
    let closed = false
    const pending = new Map<number, Resume>()
    /** Statements the worker has not answered (interrupted ones included: the worker still runs them). */
    let waiting = 0

    const failAll = (message: string) => {
      waiting = 0
      for (const [id, resume] of pending) {
        pending.delete(id)
        resume(Effect.fail(sqlError(message)))
      }
    }

    const stop = (w: Worker, message: string) => {
      if (worker === w) worker = undefined
      failAll(message)
      void w.terminate()
    }

    const start = (): Worker => {
      const w = new Worker(workerUrl, { workerData: { store } satisfies IndexReadsWorkerData })
      w.on("message", (message: FromIndexReadsWorker) => {
        // A worker given up (failed) may still answer: its statements were failed already.
        if (worker !== w) return
        if (message._tag === "Open") {
          if (message.error !== undefined) stop(w, `the index could not be opened to read: ${message.error}`)
          return
        }
        if (waiting > 0) waiting--
        const resume = pending.get(message.id)
        if (resume === undefined) return
        pending.delete(message.id)
        resume(message._tag === "Rows" ? Effect.succeed(message.rows) : Effect.fail(sqlError(message.message)))
      })
      w.on("error", (e) => stop(w, `the index's reads worker failed: ${e.message}`))
      w.on("exit", () => {
        // Only the current worker's statements: a worker given up before has none left.
        if (worker !== w) return
        worker = undefined
        failAll("the index's reads worker exited")
      })
      // The chain's process does not wait for an idle reads worker to exit.
      w.unref()
      return w
    }

    yield* Effect.addFinalizer(() =>
      Effect.promise(async () => {
        closed = true
        const w = worker
        worker = undefined
        failAll("the index is closing")
        if (w !== undefined) await closeWorker(w, { _tag: "Close" } satisfies ToIndexReadsWorker, CLOSE_WAIT_MS)
      })
    )

    const select = (sql: string, params: ReadonlyArray<unknown>) =>
      Effect.callback<ReadonlyArray<Record<string, unknown>>, SqlError>((resume) => {
        if (closed) {
          resume(Effect.fail(sqlError("the index is closed")))
          return
        }
        if (waiting >= maxWaiting) {
          resume(Effect.fail(sqlError(`the index is busy (${waiting} statements waiting); try again`)))
          return
        }
        const w = (worker ??= start())
        const id = nextId++
        waiting++
        pending.set(id, resume)
        w.postMessage({ _tag: "Select", id, sql, params } satisfies ToIndexReadsWorker)
        // Interrupted (the request given up): its answer, when it comes, is dropped.
        return Effect.sync(() => {
          pending.delete(id)
        })
      })

    return { dialect: dialectOf(store), description: describeStore(store), select } satisfies IndexReads
  })
