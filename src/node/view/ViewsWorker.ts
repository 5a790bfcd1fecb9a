import type { ResourceLimits } from "node:worker_threads"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type ApiError, ApiErrors } from "../../domain/ApiError.js"
import { Ledger } from "../../ledger/Ledger.js"
import { checkLedgerVersion, readLedgerInfo } from "../LedgerVersion.js"
import type { ViewAnswer, ViewRequest } from "../Views.js"
import type { WithLedger } from "../WithLedger.js"
import { NodeConfig } from "../NodeConfig.js"
import { Views } from "../Views.js"
import { inThreadViews, viewApiError, viewLimitsOf } from "./ViewsVm.js"
import { ViewWorkerPool } from "./ViewWorkerPool.js"

export interface ViewsWorkerOptions {
  /** The LMDB ledger's directory (the same store the `Ledger` layer opened). */
  readonly path: string
  /** The compiled worker script; default `viewWorker.js` beside this module (use the build's under vitest). */
  readonly workerUrl?: URL | undefined
  /** Views waiting or running at once beyond which new ones answer 503 (default 1,024). */
  readonly maxInFlight?: number | undefined
  /** Heap limits of each worker: one that runs out is replaced, its views answered with 500. */
  readonly resourceLimits?: ResourceLimits | undefined
  readonly log?: ((line: string) => void) | undefined
}

/**
 * Default worker heap: V8's young generation is what a view allocates into; keeping it small keeps
 * the worker's resident memory small (a view's garbage dies young), and the old generation holds
 * the module cache with room to spare.
 */
export const DEFAULT_VIEW_WORKER_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 256 }

/**
 * `POST /view` on worker threads (`NodeConfig.viewThreads` of them, over an LMDB ledger), so a view
 * never holds the event loop that serves every other request, and its garbage is collected on
 * another thread. The ledger-version rules are applied here, on the ledger's own thread; the worker
 * reads the state at the chosen version from the same store with the same executor as
 * `ViewsVmLayer`. With `viewThreads` 0, or when no worker can start, views run on this thread.
 */
export const ViewsWorkerLayer = (options: ViewsWorkerOptions) =>
  Layer.effect(
    Views,
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const config = yield* NodeConfig
      const limits = viewLimitsOf(config)
      const inThread = inThreadViews(ledger, limits)
      if (config.viewThreads === 0) return Views.of({ view: inThread })

      const pool = yield* Effect.acquireRelease(
        Effect.sync(
          () =>
            new ViewWorkerPool({
              threads: config.viewThreads,
              workerUrl: options.workerUrl ?? new URL("./viewWorker.js", import.meta.url),
              data: {
                path: options.path,
                gasBudget: limits.gasBudget,
                deadlineMs: limits.deadlineMs,
                filter: limits.filter
              },
              maxInFlight: options.maxInFlight ?? 1024,
              resourceLimits: options.resourceLimits ?? DEFAULT_VIEW_WORKER_LIMITS,
              log: options.log
            })
        ),
        (p) => Effect.promise(() => p.close())
      )
      // Workers start with the first view, not with the node: each costs ~25 MB resident and
      // ~0.2 s of CPU at start, which a node that serves no views (most test suites, explorers)
      // never needs. Views wait for the start only while it is under way.
      let mode: "pending" | "workers" | "thread" = "pending"
      let started: Promise<void> | undefined
      const start = (): Promise<void> =>
        (started ??= pool.warmUp().then((ok) => {
          mode = ok ? "workers" : "thread"
          if (!ok) options.log?.("view workers could not start: views run on the main thread")
        }))

      const onWorkers = (request: ViewRequest, ledgerVersion: bigint | undefined) =>
        Effect.flatMap(readLedgerInfo(ledger), (info) => {
          if (pool.broken) return inThread(request, ledgerVersion)
          const version = checkLedgerVersion(info, ledgerVersion)
          if (typeof version !== "bigint") return Effect.fail(version)
          return Effect.callback<WithLedger<ViewAnswer>, ApiError>((resume) => {
            const sent = pool.run(request, version, info.ledgerVersion, (r) =>
              resume(
                Effect.flatMap(readLedgerInfo(ledger), (now) =>
                  // Pruned while the worker read it (the window moved with a commit meanwhile):
                  // what it read may be partly deleted, so the answer is the version's 410.
                  now !== info && version < now.oldestLedgerVersion
                    ? Effect.fail(ApiErrors.versionPruned(version, now))
                    : r.ok
                      ? Effect.succeed({ ledger: info, value: r.answer })
                      : Effect.fail(viewApiError(r.error, info))
                )
              )
            )
            // Not transferable to another thread (nested too deep to clone): answered here instead.
            if (!sent) resume(inThread(request, ledgerVersion))
          })
        })
      const view = (
        request: ViewRequest,
        ledgerVersion: bigint | undefined
      ): Effect.Effect<WithLedger<ViewAnswer>, ApiError> =>
        mode === "workers"
          ? onWorkers(request, ledgerVersion)
          : mode === "thread"
            ? inThread(request, ledgerVersion)
            : Effect.flatMap(Effect.promise(start), () => view(request, ledgerVersion))
      return Views.of({ view })
    })
  )
