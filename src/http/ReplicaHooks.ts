import type * as Effect from "effect/Effect"
import type { ApiError } from "../domain/ApiError.js"
import type { Reply } from "./Reply.js"

/** A submission as received, to pass on unchanged. */
export interface ForwardedRequest {
  /** `/v1/transactions` or `/v1/transactions/batch`. */
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
  /** How long `wait_by_hash` waits for a transaction to be applied here. */
  readonly waitByHashMs: number
  /** The replica's state, as `GET /v1`'s `follow` object. */
  readonly status: () => Record<string, unknown>
  /** Prometheus lines appended to the metrics. */
  readonly prometheus: () => string
  /** The replica held all its source reported at some moment within the last `ms`. */
  readonly syncedWithin: (ms: number) => boolean
}
