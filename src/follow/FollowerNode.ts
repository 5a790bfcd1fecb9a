/**
 * A read replica, assembled (`movenode follow URL`): an LMDB ledger in its own data directory fed
 * by `followSource`, the node services over it and the API server, with the replica's hooks
 * (`ReplicaHooks`): submissions forwarded to the source, `wait_by_hash` answered once applied here,
 * lag in `GET /v1`, the metrics and `/-/healthy?duration_secs=N`.
 *
 *   Follower.layer(options)   the layer; its `Follower` service gives the status and the loop's fiber
 *
 * The loop runs in the layer's scope; it ends only by failing (a source that fails a check or
 * diverges), which `movenode follow` reports and exits on. Meanwhile, and after a transient failure,
 * the API keeps serving what the ledger holds.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import type { HttpConfig } from "../http/HttpConfig.js"
import { MovenodeServer } from "../http/MovenodeServer.js"
import type { ReplicaHooks } from "../http/ReplicaHooks.js"
import { Ledger } from "../ledger/Ledger.js"
import { LedgerLmdb } from "../ledger/index.js"
import { TransactionEncoderLive } from "../node/encode/TransactionEncoderLive.js"
import { Node } from "../node/Node.js"
import { ViewsVmLayer } from "../node/view/ViewsVm.js"
import { ViewsWorkerLayer } from "../node/view/ViewsWorker.js"
import { defaultChecksWorkerUrl, startChecksThread } from "./ChecksThread.js"
import { makeFeedClient } from "./FeedClient.js"
import type { SourceDiverged, SourceInvalid } from "./FollowError.js"
import { type FollowerStatus, makeFollowerStatus } from "./FollowerStatus.js"
import { followSource } from "./followSource.js"
import { forwarder } from "./forwardSubmissions.js"

export interface FollowerOptions {
  /** The source's API, `http://host:port/v1`. */
  readonly source: string
  /** The follower's own LMDB store (created when missing). */
  readonly dataDir: string
  /** The API server's settings (listen address, header prefix, metrics, log…). */
  readonly http: Partial<HttpConfig>
  /** fsync each applied block (default true). */
  readonly sync?: boolean | undefined
  /**
   * When an applied block is served (`LmdbBackendOptions.durability`): `"committed"` (the default
   * here: the store can be fetched again from the source, and the fsync stays out of the replication
   * lag) or `"flushed"` (once fsync'd, as the local chain).
   */
  readonly durability?: "flushed" | "committed" | undefined
  /** Views on worker threads (`threads`, the default, needs the built `viewWorker.js`) or in this thread. */
  readonly views?: "threads" | "inline" | undefined
  readonly viewWorkerUrl?: URL | undefined
  /**
   * Catching up, the transactions' checks run on a worker thread (`ChecksThread`): the built
   * `checksWorker.js` beside this module by default, this URL, or none (`false`: on the main thread).
   * Without a built worker (tests run from the sources) they run on the main thread.
   */
  readonly checksWorkerUrl?: URL | false | undefined
  /** How long `wait_by_hash` waits for a transaction to be applied here (default 2,000 ms). */
  readonly waitByHashMs?: number | undefined
  readonly longPollMs?: number | undefined
  readonly pollMs?: number | undefined
  readonly log?: ((line: string) => void) | undefined
}

export interface FollowerInfo {
  readonly status: FollowerStatus
  /** The follower loop; it fails with the reason it stopped. */
  readonly loop: Fiber.Fiber<never, SourceInvalid | SourceDiverged>
  readonly source: string
}

export class Follower extends Context.Service<Follower, FollowerInfo>()("movenode/follow/Follower") {
  static readonly layer = (options: FollowerOptions): Layer.Layer<Follower | MovenodeServer | Ledger, Error> =>
    Layer.unwrap(
      Effect.gen(function* () {
        const source = options.source.replace(/\/+$/, "")
        const sourceRoot = source.replace(/\/v1$/, "")
        const handle = yield* LedgerLmdb.open({
          path: options.dataDir,
          sync: options.sync,
          durability: options.durability ?? "committed"
        }).pipe(
          Effect.mapError((e) => new Error(`cannot open the follower's store at ${options.dataDir}: ${e.message}`))
        )
        const status = makeFollowerStatus(source, handle.head()?.latestVersion)
        const replica: ReplicaHooks = {
          forward: forwarder(sourceRoot),
          waitByHashMs: options.waitByHashMs ?? 2000,
          status: status.json,
          prometheus: status.prometheus,
          syncedWithin: status.syncedWithin
        }
        const feed = makeFeedClient({ url: source })
        const checksUrl =
          options.checksWorkerUrl === false ? undefined : (options.checksWorkerUrl ?? defaultChecksWorkerUrl())
        const checks =
          checksUrl === undefined
            ? undefined
            : yield* Effect.acquireRelease(
                Effect.sync(() => startChecksThread(checksUrl, options.log)),
                (t) => Effect.promise(() => t.close())
              )
        const loop = yield* Effect.forkScoped(
          followSource(handle, feed, status, {
            longPollMs: options.longPollMs,
            pollMs: options.pollMs,
            log: options.log,
            checks
          })
        )
        const ledger = Layer.succeed(Ledger, handle.service)
        const views =
          options.views === "inline"
            ? ViewsVmLayer
            : ViewsWorkerLayer({
                path: options.dataDir,
                workerUrl: options.viewWorkerUrl,
                log: (line) => options.log?.(line)
              })
        const node = Node.layerWith(views, TransactionEncoderLive).pipe(Layer.provideMerge(ledger))
        const server = MovenodeServer.layer({ headerPrefix: "X-APTOS-", ...options.http, replica }).pipe(
          Layer.provideMerge(node)
        )
        return Layer.merge(server, Layer.succeed(Follower, { status, loop, source }))
      })
    )
}
