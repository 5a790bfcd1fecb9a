/**
 * The `Indexer` of a chain whose ledger is in a data directory, run in a worker thread
 * (`indexerWorker.ts`): the chain's thread only tells the worker that blocks were committed (one
 * small message per block) and mirrors what the worker reports — the version indexed, for
 * read-after-write waits (`waitFor`), and the health. The processors, the index's SQL writes and
 * their garbage cost the chain's event loop nothing. GraphQL reads the index over a connection of
 * its own (SQLite's WAL lets it read while the worker writes), on a second worker thread when the
 * index is a SQLite file (`WorkerIndexReads`: a long scan holds that thread, not the chain's), else
 * on this thread (a PostgreSQL pool is asynchronous); opened once the worker has made the schema
 * current.
 *
 * A `Rewound` event asks the worker to go back with the ledger (by its undo log once the chain took
 * a snapshot, else by a rebuild), `reindex` to rebuild; until it reports that done, this thread
 * counts the index as empty (so no query is answered from rows of versions that are gone). A worker
 * that dies is reported (`health`) and started again a second later, told what the one before it
 * was (a snapshot taken, a reset asked and not done); closing the layer asks the worker to stop
 * after its batch (committed whole or rolled back) and waits for it.
 */
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { type ResourceLimits, Worker } from "node:worker_threads"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import { SqlError, UnknownError } from "effect/sql/SqlError"
import { ChainEvents } from "../../chain/ChainEvents.js"
import { closeWorker } from "../../closeWorker.js"
import { Indexer, type IndexerHealth, waitUntil } from "../engine/Indexer.js"
import { describeStore, dialectOf, type IndexReads, openIndexReads } from "../store/IndexerStore.js"
import type { FromIndexerWorker, IndexerWorkerData, ToIndexerWorker } from "./protocol.js"
import { defaultIndexReadsWorkerUrl, openWorkerIndexReads, readableFromWorker } from "./WorkerIndexReads.js"

export interface IndexerThreadOptions extends IndexerWorkerData {
  /** The compiled worker script (`defaultIndexerWorkerUrl`). */
  readonly workerUrl: URL
  /** The worker's heap limits (`DEFAULT_INDEXER_WORKER_LIMITS`). */
  readonly resourceLimits?: ResourceLimits | undefined
  /**
   * The GraphQL reads' worker script (`defaultIndexReadsWorkerUrl`, the default when built); false
   * or none built: the reads run on this thread.
   */
  readonly readsWorkerUrl?: URL | false | undefined
}

/** The build's worker script beside this module (the bundle's `dist/bin/indexerWorker.js`), if built. */
export const defaultIndexerWorkerUrl = (): URL | undefined => {
  const url = new URL("./indexerWorker.js", import.meta.url)
  return existsSync(fileURLToPath(url)) ? url : undefined
}

/** The worker's heap: V8's defaults unless measured otherwise (docs/benchmarks.md, session 8). */
export const DEFAULT_INDEXER_WORKER_LIMITS: ResourceLimits = {}

/**
 * The worker thread's nice value (Linux): below the chain's thread, so that when the two cores are
 * short the chain keeps its pace and the index follows with what is left, in larger batches
 * (docs/benchmarks.md, session 8: at load 24, 81 versions/s with the index at most 18 versions
 * behind, against 65/s and never behind at 0, and 83/s but 990 behind at 19).
 * `MOVENODE_INDEXER_NICE` overrides it (0: the process's priority).
 */
export const DEFAULT_INDEXER_NICE = 5

/** How long a query waits for the read connection (the worker opening the store) before failing. */
const OPEN_WAIT_MS = 10_000
const RESTART_MS = 1_000
const CLOSE_WAIT_MS = 10_000

const notOpen = (message: string) =>
  new SqlError({ reason: new UnknownError({ cause: undefined, message, operation: "connect" }) })

export const indexerThreadLayer = (options: IndexerThreadOptions): Layer.Layer<Indexer, never, ChainEvents> =>
  Layer.effect(
    Indexer,
    Effect.gen(function* () {
      const events = yield* ChainEvents
      const scope = yield* Effect.scope
      const services = yield* Effect.context<never>()
      const run = Effect.runForkWith(services)
      const { workerUrl, resourceLimits, readsWorkerUrl, ...rest } = options
      const readsUrl = readsWorkerUrl === false ? undefined : (readsWorkerUrl ?? defaultIndexReadsWorkerUrl())
      const data: IndexerWorkerData = {
        ...rest,
        nice: rest.nice ?? Number(process.env.MOVENODE_INDEXER_NICE ?? DEFAULT_INDEXER_NICE)
      }

      let health: IndexerHealth = {
        state: "starting",
        indexedVersion: -1n,
        lastError: undefined,
        batches: 0,
        transactions: 0,
        rewindsUndone: 0,
        rebuilds: 0
      }
      let resetsAsked = 0
      /** The latest reset the worker reported done (`Progress.resetsAcknowledged`). */
      let resetsAcknowledged = 0
      /**
       * A full reset (`reindex`) was asked since the worker last reported one done: a worker
       * started meanwhile does it whole, whatever rewind was asked after it.
       */
      let fullResetPending = false
      /** The chain took a snapshot: the worker keeps its batches' undo (a restarted one too). */
      let keepingUndo = false
      let closing = false
      let worker: Worker | undefined
      const waiters = new Set<{ readonly version: bigint; readonly resume: () => void }>()
      const reached = () => health.indexedVersion
      const release = () => {
        for (const w of waiters)
          if (w.version <= reached()) {
            waiters.delete(w)
            w.resume()
          }
      }
      const reads = yield* Deferred.make<IndexReads, SqlError>()
      const openReads: Effect.Effect<IndexReads, Error, Scope.Scope> =
        readsUrl !== undefined && readableFromWorker(data.store)
          ? openWorkerIndexReads(data.store, readsUrl)
          : openIndexReads(data.store)
      let readsOpening = false

      const send = (message: ToIndexerWorker) => worker?.postMessage(message)
      const onMessage = (message: FromIndexerWorker) => {
        switch (message._tag) {
          case "Ready":
            if (!readsOpening) {
              readsOpening = true
              run(
                Effect.matchEffect(Scope.provide(scope)(openReads), {
                  onFailure: (e) => Deferred.fail(reads, notOpen(e.message)),
                  onSuccess: (r) => Deferred.succeed(reads, r)
                })
              )
            }
            return
          case "Progress":
            if (message.resetsAcknowledged > resetsAcknowledged) resetsAcknowledged = message.resetsAcknowledged
            // A report from before the reset last asked for says nothing about the index now.
            if (message.resetsAcknowledged < resetsAsked) return
            fullResetPending = false
            health = message.health
            release()
            return
          case "Log":
            run(
              message.level === "Error" || message.level === "Fatal"
                ? Effect.logError(`indexer: ${message.message}`)
                : message.level === "Warn" || message.level === "Warning"
                  ? Effect.logWarning(`indexer: ${message.message}`)
                  : Effect.logDebug(`indexer: ${message.message}`)
            )
            return
          case "Failed":
            health = { ...health, state: "failing", lastError: `the indexer's worker stopped: ${message.message}` }
            run(Effect.logWarning(health.lastError))
            return
          case "Closed":
            return
        }
      }

      const start = () => {
        const w = new Worker(workerUrl, {
          // A restarted worker starts from what the one before it was told: it keeps its batches'
          // undo if the chain took a snapshot, does a reset asked and not yet reported done (a full
          // one if any was full) before anything else, and does not do again one already done.
          workerData: {
            ...data,
            resetsAcknowledged,
            pendingReset: resetsAsked > resetsAcknowledged ? { asked: resetsAsked, full: fullResetPending } : undefined,
            keepUndo: keepingUndo
          } satisfies IndexerWorkerData,
          resourceLimits: resourceLimits ?? DEFAULT_INDEXER_WORKER_LIMITS
        })
        worker = w
        w.on("message", onMessage)
        w.on("error", (e) => {
          health = { ...health, state: "failing", lastError: `the indexer's worker failed: ${e.message}` }
        })
        w.on("exit", (code) => {
          if (worker === w) worker = undefined
          if (closing) return
          health = {
            ...health,
            state: "failing",
            lastError: health.lastError ?? `the indexer's worker exited (code ${code})`
          }
          run(Effect.logWarning(`indexer: the worker exited (code ${code}); starting another`))
          setTimeout(() => {
            if (!closing) start()
          }, RESTART_MS).unref()
        })
      }

      const askReset = (full: boolean) =>
        Effect.sync(() => {
          resetsAsked++
          if (full) fullResetPending = true
          health = { ...health, indexedVersion: -1n }
          send({ _tag: "Reset", asked: resetsAsked, full })
        })

      // Every committed block wakes the worker; a rewind of the chain takes the index back, a
      // snapshot makes it keep its batches' undo. The subscription is drained at once (the chain's
      // PubSub waits for a full subscriber).
      const subscription = yield* events.ledgerSubscription
      yield* Effect.forkScoped(
        Effect.forever(
          Effect.flatMap(subscription, (event) =>
            event._tag === "Rewound"
              ? askReset(false)
              : event._tag === "Marked"
                ? Effect.sync(() => {
                    keepingUndo = true
                    send({ _tag: "KeepUndo" })
                  })
                : Effect.sync(() => send({ _tag: "Wake" }))
          )
        )
      )

      start()
      yield* Effect.addFinalizer(() =>
        Effect.promise(async () => {
          closing = true
          if (worker !== undefined)
            await closeWorker(worker, { _tag: "Close" } satisfies ToIndexerWorker, CLOSE_WAIT_MS)
        })
      )

      const store: IndexReads = {
        dialect: dialectOf(data.store),
        description: describeStore(data.store),
        select: (sql, params) =>
          Effect.flatMap(
            Effect.timeoutOrElse(Deferred.await(reads), {
              duration: OPEN_WAIT_MS,
              orElse: () => Effect.fail(notOpen("the index is not open yet (its worker has not started)"))
            }),
            (r) => r.select(sql, params)
          )
      }
      return Indexer.of({
        store,
        health: Effect.sync(() => health),
        // A wait tells the worker, so that it indexes at once rather than gathering blocks.
        waitFor: (version, timeoutMs) =>
          Effect.suspend(() => {
            if (version > reached()) send({ _tag: "Hurry", version })
            return waitUntil(waiters, reached, version, timeoutMs)
          }),
        reindex: askReset(true)
      })
    })
  )
