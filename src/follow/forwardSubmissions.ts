import * as Effect from "effect/Effect"
import { ApiError } from "../domain/ApiError.js"
import type { Reply } from "../http/Reply.js"
import type { ForwardedRequest } from "../http/ReplicaHooks.js"

/** The source's ledger headers, passed back with a forwarded answer. */
const LEDGER_HEADER =
  /^x-[a-z]+-(chain-id|ledger-version|ledger-oldest-version|ledger-timestampusec|epoch|block-height|oldest-block-height|gas-used)$/

/**
 * Forwards a submission to the node that holds the mempool (a follower's source, an API worker's
 * writer) with `fetch`, or a test control to an API worker's writer; that node's answer, status,
 * body and ledger headers, is the client's.
 */
export const forwarder =
  (sourceRoot: string) =>
  (request: ForwardedRequest): Effect.Effect<Reply, ApiError> =>
    Effect.tryPromise({
      try: async (signal) => {
        const get = request.method === "GET"
        const response = await fetch(`${sourceRoot}${request.path}`, {
          method: get ? "GET" : "POST",
          headers: {
            ...(get ? {} : { "content-type": request.contentType }),
            ...(request.accept === undefined ? {} : { accept: request.accept })
          },
          ...(get ? {} : { body: request.body }),
          signal: AbortSignal.any([signal, AbortSignal.timeout(30_000)])
        })
        const body = new Uint8Array(await response.arrayBuffer())
        const headers: string[] = []
        for (const [k, v] of response.headers) if (LEDGER_HEADER.test(k)) headers.push(k, v)
        return {
          status: response.status,
          contentType: response.headers.get("content-type") ?? "application/json",
          body,
          ledger: undefined,
          headers
        } satisfies Reply
      },
      catch: (e) =>
        new ApiError({
          status: 503,
          code: "internal_error",
          message: `This node passes ${request.path.startsWith("/__movenode") ? "test controls" : "submissions"} to ${sourceRoot}, which could not be reached: ${e instanceof Error ? e.message : String(e)}`
        })
    })
