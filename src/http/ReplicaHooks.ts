import type * as Effect from "effect/Effect"
import type { ApiError } from "../domain/ApiError.js"
import type { Reply } from "./Reply.js"

/** A request as received, to pass on unchanged: a submission, or (from an API worker) a test control. */
export interface ForwardedRequest {
  /** POST when absent. */
  readonly method?: "GET" | "POST" | undefined
  /** `/v1/transactions`, `/v1/transactions/batch`, or a control's `/__movenode/v1/…`. */
  readonly path: string
  readonly contentType: string
  readonly accept: string | undefined
  readonly body: Uint8Array
}

/**
 * What the API does differently on a read replica (`movenode follow`, src/follow): it holds no
 * mempool, so submissions go to its source and are answered with the source's answer; it answers
 * `wait_by_hash` once it has applied the transaction itself; `GET /v1` carries its `follow` state,
 * the metrics its lag, and `/-/healthy?duration_secs=N` is healthy while it has kept up with its
 * source within N seconds (even when the source's chain is idle and its timestamp old).
 */
export interface ReplicaHooks {
  readonly forward: (request: ForwardedRequest) => Effect.Effect<Reply, ApiError>
  /**
   * The test controls (`/__movenode/v1/…`) are passed on too: an API worker's writer is the same
   * chain (the local chain holds the controls, a worker none). A follower keeps its own answer (it
   * holds no controls): controls sent to it are not its source's business.
   */
  readonly forwardControls?: boolean | undefined
  /** How long `wait_by_hash` waits for a transaction to be applied here. */
  readonly waitByHashMs: number
  /** The replica's state, as `GET /v1`'s `follow` object. */
  readonly status: () => Record<string, unknown>
  /** Prometheus lines appended to the metrics. */
  readonly prometheus: () => string
  /** The replica held all its source reported at some moment within the last `ms`. */
  readonly syncedWithin: (ms: number) => boolean
}
