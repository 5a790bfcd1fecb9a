/**
 * The indexer's GraphQL API (`POST /v1/graphql`, 8090 by default, where run-localnet puts its
 * Hasura): the engine's answers over HTTP, with the stub's CORS. Before a request that reads tables
 * runs, it waits (at most `READ_AFTER_WRITE_MS`) until the index has reached the ledger version
 * current when the request arrived: once `wait_by_hash` answered, a query sees the transaction, and
 * `processor_status` reports only what the tables hold. `GET /healthz` answers 200 once genesis is
 * indexed (the readiness endpoint's check), 503 before.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { ListenAddress } from "../http/HttpConfig.js"
import {
  parseJson,
  preflight,
  readSmallBody,
  reply,
  replyJson,
  type SideListener,
  serveScoped
} from "../http/sideServer.js"
import { Ledger } from "../ledger/Ledger.js"
import { Indexer } from "./engine/Indexer.js"
import { errorBody, HasuraError } from "./graphql/errors.js"
import { type GraphqlEngine, makeGraphqlEngine } from "./graphql/GraphqlEngine.js"

const MAX_BODY = 256 * 1024
/** How long a query waits for the index to reach the ledger before answering with what it has. */
export const READ_AFTER_WRITE_MS = 2_000

export const makeGraphqlListener = (engine: GraphqlEngine, healthy: Effect.Effect<boolean>): SideListener => {
  const error = (res: ServerResponse, message: string, code: HasuraError["code"] = "parse-failed") =>
    replyJson(res, 200, errorBody([new HasuraError(message, code)]))
  return (req: IncomingMessage, res: ServerResponse) => {
    if (preflight(req, res)) return
    const path = (req.url ?? "/").split("?")[0]!
    if (path === "/healthz" && req.method === "GET") {
      Effect.runCallback(healthy, {
        onExit: (exit) =>
          exit._tag === "Success" && exit.value
            ? reply(res, 200, "text/plain", "OK")
            : reply(res, 503, "text/plain", "the indexer has not indexed genesis yet")
      })
      return
    }
    if (path !== "/v1/graphql")
      return replyJson(res, 404, { path: "$", error: `resource does not exist`, code: "not-found" })
    if (req.method !== "POST") return replyJson(res, 405, { path: "$", error: "use POST", code: "method-not-allowed" })
    readSmallBody(req, MAX_BODY).then(
      (bytes) => {
        if (bytes === undefined) return error(res, `the request body exceeds ${MAX_BODY} bytes`)
        const parsed = parseJson(bytes)
        if ("error" in parsed) return error(res, `invalid JSON: ${parsed.error.slice(0, 200)}`)
        Effect.runCallback(engine.answer(parsed.value), {
          onExit: (exit) =>
            exit._tag === "Success"
              ? reply(res, 200, "application/json; charset=utf-8", exit.value)
              : reply(res, 500, "text/plain", "internal error")
        })
      },
      () => reply(res, 500, "text/plain", "internal error")
    )
  }
}

/** The GraphQL API over the `Indexer`'s store, on `listen`. */
export class GraphqlServer extends Context.Service<GraphqlServer, { readonly address: ListenAddress }>()(
  "movenode/indexer/GraphqlServer"
) {
  static readonly layer = (listen: ListenAddress): Layer.Layer<GraphqlServer, Error, Indexer | Ledger> =>
    Layer.effect(
      GraphqlServer,
      Effect.gen(function* () {
        const indexer = yield* Indexer
        const ledger = yield* Ledger
        const storeAfterCatchUp = Effect.gen(function* () {
          const info = yield* Effect.orElseSucceed(ledger.ledgerInfo, () => undefined)
          if (info !== undefined) yield* indexer.waitFor(info.ledgerVersion, READ_AFTER_WRITE_MS)
          return indexer.store
        })
        const engine = makeGraphqlEngine(storeAfterCatchUp)
        const healthy = Effect.map(indexer.health, (h) => h.indexedVersion >= 0n)
        return { address: yield* serveScoped(makeGraphqlListener(engine, healthy), listen) }
      })
    )
}
