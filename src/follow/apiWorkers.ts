/**
 * Several API processes over one data directory (scale up before scaling out, Erigon's rpcdaemon
 * pattern): the process that writes the ledger (the local chain, `movenode run`, a follower) keeps
 * its own API on a private loopback port and starts N worker processes (node:cluster) that share
 * the public listening socket. Each worker opens the same LMDB environment read-only (LMDB allows
 * many reader processes; the writer stays single; `readOnlyStore.ts`), re-reads the ledger head when it changed, runs
 * views in its own thread, and passes submissions and the test controls to the writer's private API
 * (`ReplicaHooks`), so every endpoint answers as the writer would; `wait_by_hash` answers once the
 * transaction is committed to the shared store. A pending transaction is not visible through a
 * worker (the mempool lives in the writer): `by_hash` answers 404 until it is committed.
 *
 *   startApiWorkers(options)   in the writer: forks the workers (replaced when one dies), scoped
 *   isApiWorker() / apiWorkerMain()   in a worker: the program the CLI runs instead of its command
 */
import cluster, { type Worker } from "node:cluster"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import type { ListenAddress } from "../http/HttpConfig.js"
import { MovenodeServer } from "../http/MovenodeServer.js"
import type { ReplicaHooks } from "../http/ReplicaHooks.js"
import { makeNodeConfig } from "../node/NodeConfig.js"
import { forwarder } from "./forwardSubmissions.js"
import { readOnlyNodeLayer } from "./readOnlyNode.js"

/** What a worker is told (through its environment: it runs the same script as the writer). */
export interface ApiWorkerSpec {
  /** The LMDB store's directory. */
  readonly dataDir: string
  readonly listen: ListenAddress
  /** The writer's private API, `http://127.0.0.1:PORT/v1`: where submissions go. */
  readonly writerUrl: string
  readonly headerPrefix: string
  readonly gitHash: string | undefined
}

const ENV = "MOVENODE_API_WORKER"

export const isApiWorker = (): boolean => cluster.isWorker && process.env[ENV] !== undefined

/** The worker's node: a read-only ledger over the shared store, the node services, the server. */
export const apiWorkerLayer = (spec: ApiWorkerSpec) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const replica: ReplicaHooks = {
        forward: forwarder(spec.writerUrl.replace(/\/v1$/, "")),
        // The writer is this chain: its test controls answer through any worker.
        forwardControls: true,
        waitByHashMs: 2000,
        status: () => ({ role: "api_worker", writer: spec.writerUrl, pid: process.pid }),
        prometheus: () => "",
        // Same store as the writer: as fresh as the writer, judged by the reference's rule alone.
        syncedWithin: () => false
      }
      return MovenodeServer.layer({
        listen: spec.listen,
        headerPrefix: spec.headerPrefix,
        gitHash: spec.gitHash,
        replica
      }).pipe(
        // Views in the worker's own thread: the worker is itself one of N processes.
        Layer.provide(readOnlyNodeLayer(spec.dataDir, makeNodeConfig({ viewThreads: 0 })))
      )
    })
  )

/** In a worker: serves until the writer stops it (SIGTERM) or disconnects. */
export const apiWorkerMain = (): void => {
  const spec = JSON.parse(process.env[ENV]!) as ApiWorkerSpec
  Effect.runFork(
    Layer.launch(apiWorkerLayer(spec)).pipe(
      Effect.tapCause((cause) =>
        Effect.sync(() => process.stderr.write(`movenode api worker ${process.pid}: ${String(cause)}\n`))
      )
    )
  )
  const stop = () => process.exit(0)
  process.on("SIGTERM", stop)
  process.on("disconnect", stop)
}

/**
 * In the writer: forks `count` workers serving `spec.listen` and waits until all listen; a worker
 * that exits is replaced (at most once a second). Closing the scope stops them.
 */
export const startApiWorkers = (
  count: number,
  spec: ApiWorkerSpec,
  log?: (line: string) => void
): Effect.Effect<{ readonly pids: () => ReadonlyArray<number>; readonly address: ListenAddress }, Error, Scope.Scope> =>
  Effect.gen(function* () {
    const workers = new Set<Worker>()
    let closing = false
    let lastFork = 0
    const fork = (): Worker => {
      const w = cluster.fork({ [ENV]: JSON.stringify(spec) })
      workers.add(w)
      w.on("exit", (code, signal) => {
        workers.delete(w)
        if (closing) return
        log?.(`api worker ${w.process.pid} exited (${signal ?? code}); starting another`)
        const wait = Math.max(0, lastFork + 1000 - Date.now())
        setTimeout(() => {
          if (!closing) {
            lastFork = Date.now()
            fork()
          }
        }, wait)
      })
      return w
    }
    const address = yield* Effect.acquireRelease(
      Effect.callback<ListenAddress, Error>((resume) => {
        let listening = 0
        for (let i = 0; i < count; i++) {
          const w = fork()
          // Port 0 is one free port shared by all workers: the first to listen says which.
          w.once("listening", (a) => {
            if (++listening === count) resume(Effect.succeed({ host: spec.listen.host, port: a.port }))
          })
          w.once("exit", (code) => {
            if (listening < count) resume(Effect.fail(new Error(`an api worker exited with ${code} before listening`)))
          })
        }
      }),
      () =>
        Effect.callback<void>((resume) => {
          closing = true
          if (workers.size === 0) return resume(Effect.void)
          let left = workers.size
          for (const w of workers) {
            w.once("exit", () => {
              if (--left === 0) resume(Effect.void)
            })
            w.process.kill("SIGTERM")
          }
        })
    )
    return { pids: () => [...workers].map((w) => w.process.pid ?? 0), address }
  })
