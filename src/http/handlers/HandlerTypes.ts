import type * as Effect from "effect/Effect"
import type { ApiError } from "../../domain/ApiError.js"
import type { NodeService } from "../../node/NodeService.js"
import type { HttpConfig } from "../HttpConfig.js"
import type { LedgerHeaders } from "../LedgerHeaders.js"
import type { Reply } from "../Reply.js"

/** What a handler sees of a request, after routing, Accept negotiation and POST framing. */
export interface RequestInput {
  /** Path parameters, still percent-encoded (each parser decodes what it accepts). */
  readonly params: Readonly<Record<string, string>>
  readonly query: ReadonlyMap<string, string>
  /** `Accept` chose BCS. */
  readonly bcs: boolean
  /** The body of a POST (already bounded by the size limit). */
  readonly body: Uint8Array | undefined
  /** The body's media type, lowercased, parameters dropped. */
  readonly mediaType: string | undefined
}

export type Handler = (input: RequestInput) => Effect.Effect<Reply, ApiError>

export interface RouteSpec {
  readonly handler: Handler
  /** For POST routes: the media types the body may have (anything else is 415). */
  readonly bodyTypes?: ReadonlyArray<string>
  /** A POST that may come without a body (no Content-Length, or 0): the handler sees an empty body. */
  readonly bodyOptional?: boolean
}

/** What handlers are built from. */
export interface HandlerEnv {
  readonly node: NodeService
  readonly config: HttpConfig
  readonly headers: LedgerHeaders
  /** The OpenAPI document, serialized on the first request for it (building it is ~100 ms of a start). */
  readonly specJson: () => string
}
