/**
 * Entry point of the indexer's worker thread (started by `IndexerThread`). It opens the chain's
 * LMDB store to read (lmdb-js shares one environment between the threads of a process; the chain's
 * thread holds the data directory's lock and is the only writer), opens the index's store to write
 * (SQLite or PostgreSQL), and runs the same indexing loop as the in-thread indexer
 * (`followLedger`): the processors, the SQL writes and their garbage all stay off the chain's
 * event loop. It reports its progress after every change and its log lines as messages.
 */
import { readlinkSync } from "node:fs"
import { setPriority } from "node:os"
import { parentPort, workerData } from "node:worker_threads"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import { openReadOnlyStore } from "../../follow/readOnlyStore.js"
import { closeStore } from "../../ledger/closeStore.js"
import { makeLedgerService } from "../../ledger/makeLedgerService.js"
import { followLedger } from "../engine/Indexer.js"
import { processorPipeline } from "../engine/processorPipeline.js"
import { IndexerStore } from "../store/IndexerStore.js"
import { catchUpPriority } from "./catchUpPriority.js"
import { makeResetAcknowledgement } from "./resetAcknowledgement.js"
import type { FromIndexerWorker, IndexerWorkerData, ToIndexerWorker } from "./protocol.js"

const port = parentPort
if (port === null) throw new Error("indexerWorker.js runs only as a worker thread")
const data = workerData as IndexerWorkerData
const post = (message: FromIndexerWorker) => port.postMessage(message)

// The chain's thread first: this thread runs at a lower priority (a nice value of its own: Linux
// keeps one per thread, and `/proc/thread-self` names this one), so when the cores are short the
// chain keeps its pace and the index catches up with what is left (in larger batches). Elsewhere
// (no /proc) the thread keeps the process's priority.
const threadId = (() => {
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop())
    return Number.isSafeInteger(tid) && tid > 0 ? tid : undefined
  } catch {
    return undefined
  }
})()
/** Sets this thread's nice value; false when it could not (no thread id, or not allowed to raise it). */
const setNice = (nice: number): boolean => {
  if (threadId === undefined) return false
  try {
    setPriority(threadId, nice)
    return true
  } catch {
    return false
  }
}
const lowered = data.nice !== undefined && data.nice !== 0 && setNice(data.nice)

// Far behind (1,000 versions, or 500 ms): the chain's priority back until caught up (`catchUpPriority.ts`).
const onLook = lowered ? catchUpPriority({ nice: data.nice!, setNice }) : undefined

const program = Effect.gen(function* () {
  const closing = yield* Deferred.make<void>()
  const backend = yield* Effect.acquireRelease(
    Effect.sync(() => openReadOnlyStore(data.ledgerPath)),
    closeStore
  )
  const ledger = makeLedgerService(backend, {}).service
  const store = Context.get(
    yield* Layer.build(
      IndexerStore.layer(data.store, { schemaExtra: data.schemaExtra, processorNames: data.processorNames })
    ),
    IndexerStore
  )
  post({ _tag: "Ready" })
  const resets = makeResetAcknowledgement(data.resetsAcknowledged ?? 0, data.pendingReset?.asked)
  const follower = yield* followLedger(store, ledger, {
    pipeline: processorPipeline(),
    maxBatchTransactions: data.maxBatchTransactions,
    // The chain's thread committed since this thread's read snapshot was taken: renew it.
    beforeStep: () => backend.refreshReads?.(),
    // The batch is read: no snapshot held while its rows are stored (`releaseReads`).
    afterRead: () => backend.releaseReads?.(),
    // The store's truncations (revert, reset, load), as of the last refresh.
    rewinds: () => backend.truncations?.() ?? 0,
    onLook,
    keepUndo: data.keepUndo,
    goBackFirst: data.pendingReset === undefined ? undefined : data.pendingReset.full ? "reset" : "rewind",
    onProgress: (health, lastGoBackDone) => {
      post({ _tag: "Progress", health, resetsAcknowledged: resets.acknowledged(lastGoBackDone) })
    }
  })
  port.on("message", (message: ToIndexerWorker) => {
    switch (message._tag) {
      case "Wake":
        Effect.runSync(follower.wake)
        return
      case "Hurry":
        Effect.runSync(follower.hurry(message.version))
        return
      case "Reset":
        resets.asked(message.asked, follower.goBacksStarted())
        Effect.runSync(message.full ? follower.requestReset : follower.requestRewind)
        return
      case "KeepUndo":
        Effect.runSync(follower.keepUndo)
        return
      case "Close":
        Effect.runSync(Deferred.succeed(closing, undefined))
        return
    }
  })
  yield* Deferred.await(closing)
})

Effect.runPromise(
  Effect.scoped(program).pipe(
    Effect.provide(
      Logger.layer([
        Logger.make((options) =>
          post({
            _tag: "Log",
            level: options.logLevel,
            message: (Array.isArray(options.message) ? options.message : [options.message]).map(String).join(" ")
          })
        )
      ])
    )
  )
).then(
  () => {
    post({ _tag: "Closed" })
    port.close()
  },
  (e) => {
    post({ _tag: "Failed", message: e instanceof Error ? e.message : String(e) })
    port.close()
  }
)
