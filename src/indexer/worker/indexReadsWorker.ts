/**
 * Entry point of the GraphQL reads' worker thread (started by `WorkerIndexReads`): it opens the
 * index's SQLite file to read (`openIndexReads`, the same connection settings as on the main thread)
 * and runs each statement it is sent, answering with the rows. SQLite is synchronous: a statement
 * that scans a large table (a filter on an unindexed column, an aggregate's count) holds its thread
 * for as long as it runs, and on the chain's thread that was the chain's and the REST API's time.
 * Here it holds only this thread; statements run one at a time, in the order they came.
 */
import { parentPort, workerData } from "node:worker_threads"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import { openIndexReads } from "../store/IndexerStore.js"
import type { FromIndexReadsWorker, IndexReadsWorkerData, ToIndexReadsWorker } from "./readsProtocol.js"

const port = parentPort
if (port === null) throw new Error("indexReadsWorker.js runs only as a worker thread")
const data = workerData as IndexReadsWorkerData
const post = (message: FromIndexReadsWorker) => port.postMessage(message)

const program = Effect.gen(function* () {
  const closing = yield* Deferred.make<void>()
  const reads = yield* openIndexReads(data.store)
  port.on("message", (message: ToIndexReadsWorker) => {
    if (message._tag === "Close") {
      Effect.runSync(Deferred.succeed(closing, undefined))
      return
    }
    Effect.runCallback(reads.select(message.sql, message.params), {
      onExit: (exit) =>
        post(
          exit._tag === "Success"
            ? { _tag: "Rows", id: message.id, rows: exit.value }
            : {
                _tag: "Failed",
                id: message.id,
                message: (() => {
                  const fail = exit.cause.reasons.find((r) => r._tag === "Fail")
                  const e = fail?._tag === "Fail" ? fail.error : undefined
                  return e instanceof Error ? e.message : "the statement failed"
                })()
              }
        )
    })
  })
  post({ _tag: "Open" })
  yield* Deferred.await(closing)
})

Effect.runPromise(Effect.scoped(program)).then(
  () => port.close(),
  (e: unknown) => {
    post({ _tag: "Open", error: e instanceof Error ? e.message : String(e) })
    port.close()
  }
)
