import type { IncomingMessage, ServerResponse } from "node:http"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Result from "effect/Result"
import { type ApiError, ApiErrors } from "../domain/ApiError.js"
import type { NodeService } from "../node/NodeService.js"
import { wantsBcs } from "./Accept.js"
import { checkFraming, mediaType, readBody, unsupportedMediaType } from "./Body.js"
import { accountStateHandlers } from "./handlers/accountStateHandlers.js"
import { accountsHandlers } from "./handlers/accountsHandlers.js"
import { blocksHandlers } from "./handlers/blocksHandlers.js"
import { experimentalHandlers } from "./handlers/experimentalHandlers.js"
import type { HandlerEnv, RequestInput, RouteSpec } from "./handlers/HandlerTypes.js"
import { generalHandlers } from "./handlers/generalHandlers.js"
import { postHandlers } from "./handlers/postHandlers.js"
import { simulateHandlers } from "./handlers/simulateHandlers.js"
import { makeCors } from "./Cors.js"
import { submissionsHandlers } from "./handlers/submissionsHandlers.js"
import { controlsHandlers } from "./controls/controlsHandlers.js"
import { tablesHandlers } from "./handlers/tablesHandlers.js"
import { transactionReadsHandlers } from "./handlers/transactionReadsHandlers.js"
import type { HttpConfig } from "./HttpConfig.js"
import { makeLedgerHeaders } from "./LedgerHeaders.js"
import type { HttpMetrics } from "./Metrics.js"
import { openApiDocument } from "./OpenApiDoc.js"
import { parseQuery } from "./Query.js"
import { errorReply, type Reply } from "./Reply.js"
import { makeRouter, type RouteId, servedRoutes } from "./Routes.js"
import { makeVersionGate, versionWishOf } from "./versionGate.js"

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void

/** What the server tells its listener about its life: `closing` once graceful shutdown began. */
export interface ServerLifecycle {
  closing: boolean
}

/** No body at all: no Content-Length (and not chunked), or a length of 0. */
const withoutBody = (req: IncomingMessage): boolean => {
  const length = req.headers["content-length"]
  return length === undefined ? !/chunked/i.test(req.headers["transfer-encoding"] ?? "") : length === "0"
}

const EMPTY_QUERY: ReadonlyMap<string, string> = new Map()
const NO_HEADERS: ReadonlyArray<string> = []
const CLOSE = ["connection", "close"]

/** 503 when more requests wait to be handled than the node holds connections (`HttpConfig.bodyIntake`). */
const intakeFull = (waiting: number): ApiError =>
  ApiErrors.webFramework(503, `Service Unavailable: ${waiting} requests wait to be handled; retry later`)

/** One handler per endpoint of the Api: a missing or extra one is a startup error, not a 404. */
export const makeRouteSpecs = (env: HandlerEnv): Record<RouteId, RouteSpec> => {
  const specs: Record<RouteId, RouteSpec> = {
    ...generalHandlers(env),
    ...accountsHandlers(env),
    ...postHandlers(env),
    ...accountStateHandlers(env),
    ...transactionReadsHandlers(env),
    ...blocksHandlers(env),
    ...tablesHandlers(env),
    ...simulateHandlers(env),
    ...submissionsHandlers(env),
    ...experimentalHandlers(env),
    ...controlsHandlers(env)
  }
  const declared = new Set(servedRoutes.map((r) => r.id))
  for (const id of Object.keys(specs)) if (!declared.has(id as RouteId)) throw new Error(`handler without route: ${id}`)
  for (const id of declared) if (specs[id] === undefined) throw new Error(`route without handler: ${id}`)
  return specs
}

/**
 * The `node:http` request listener serving the Api. Each request is routed with the table read
 * from the Api definition, negotiated, framed, handed to its handler (an Effect over the `Node`
 * service, run with `Effect.runCallback`), and every outcome, including defects, is written as a
 * response: a failure is mapped once by `errorReply`, a defect becomes 500 `internal_error`.
 */
export const makeRequestListener = (
  node: NodeService,
  config: HttpConfig,
  metrics: HttpMetrics | undefined,
  lifecycle: ServerLifecycle = { closing: false }
) => {
  const headers = makeLedgerHeaders(config.headerPrefix)
  let spec: string | undefined
  const specJson = () => (spec ??= JSON.stringify(openApiDocument(headers)))
  const specs = makeRouteSpecs({ node, config, headers, specJson })
  const route = makeRouter(servedRoutes)
  const log = config.log
  const cors = makeCors(config.cors, headers)
  const gate = makeVersionGate(node)

  const send = (req: IncomingMessage, res: ServerResponse, reply: Reply, routeId: string, start: number) => {
    if (res.headersSent || res.destroyed) return
    const body =
      typeof reply.body === "string"
        ? reply.body
        : Buffer.from(reply.body.buffer, reply.body.byteOffset, reply.body.byteLength)
    const ascii = reply.ascii === true && typeof body === "string"
    const length = typeof body === "string" ? (ascii ? body.length : Buffer.byteLength(body)) : body.length
    const ledger = reply.ledger === undefined ? NO_HEADERS : headers.render(reply.ledger)
    const all = ledger.concat("content-type", reply.contentType, "content-length", String(length))
    if (reply.headers !== undefined) for (const h of reply.headers) all.push(h)
    if (cors !== undefined) for (const h of cors.responseHeaders(req)) all.push(h)
    // During graceful shutdown keep-alive clients are told to go, so they do not hold the node.
    if (lifecycle.closing && reply.headers !== CLOSE) all.push("connection", "close")
    res.writeHead(reply.status, all)
    if (ascii) res.end(body, "latin1")
    else res.end(body)
    if (metrics !== undefined || log !== undefined) {
      const seconds = (performance.now() - start) / 1000
      metrics?.observe(routeId, reply.status, seconds)
      log?.(`${req.method} ${(req.url ?? "").slice(0, 300)} ${reply.status} ${(seconds * 1000).toFixed(2)}ms`)
    }
  }

  const fail = (
    req: IncomingMessage,
    res: ServerResponse,
    e: ApiError,
    routeId: string,
    start: number,
    close = false
  ) => send(req, res, errorReply(e, close ? CLOSE : undefined), routeId, start)

  const defect = (req: IncomingMessage, res: ServerResponse, cause: unknown, routeId: string, start: number) => {
    log?.(
      `defect on ${req.method} ${(req.url ?? "").slice(0, 300)}: ${cause instanceof Error ? cause.stack : String(cause)}`
    )
    fail(req, res, ApiErrors.internal("Internal server error"), routeId, start)
  }

  const run = (
    req: IncomingMessage,
    res: ServerResponse,
    spec: RouteSpec,
    input: RequestInput,
    id: string,
    start: number
  ) => {
    let effect: Effect.Effect<Reply, ApiError>
    try {
      // A request that names a ledger version this node may not hold yet (versionGate.ts).
      const wish = versionWishOf(req.headers, input.query, config.maxVersionWaitMs)
      if (wish === undefined) effect = spec.handler(input)
      else if ("target" in wish) effect = Effect.andThen(gate.admit(wish), () => spec.handler(input))
      else effect = Effect.fail(wish)
    } catch (e) {
      return defect(req, res, e, id, start)
    }
    Effect.runCallback(effect, {
      onExit: (exit) => {
        if (Exit.isSuccess(exit)) return send(req, res, exit.value, id, start)
        const error = Cause.findError(exit.cause)
        if (Result.isSuccess(error)) return fail(req, res, error.success, id, start)
        defect(req, res, Cause.squash(exit.cause), id, start)
      }
    })
  }

  /** A CORS preflight (any path): 200 with the allowed methods and headers, no body. */
  const answerPreflight = (
    req: IncomingMessage,
    res: ServerResponse,
    corsHeaders: ReadonlyArray<string>,
    start: number
  ) => {
    res.writeHead(200, corsHeaders.concat("content-length", "0"))
    res.end()
    metrics?.observe("preflight", 200, (performance.now() - start) / 1000)
    log?.(`OPTIONS ${(req.url ?? "").slice(0, 300)} 200 (CORS preflight)`)
  }

  const listener: RequestListener = (req, res) => {
    const start = performance.now()
    try {
      if (cors !== undefined && req.method === "OPTIONS") {
        const preflight = cors.preflight(req)
        if (preflight !== undefined) return answerPreflight(req, res, preflight, start)
      }
      if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1)
        return fail(
          req,
          res,
          ApiErrors.webFramework(400, "Bad Request: an HTTP/1.1 request without a Host header"),
          "refused",
          start,
          true
        )
      const url = req.url ?? "/"
      const q = url.indexOf("?")
      const pathname = q < 0 ? url : url.slice(0, q)
      const match = route(req.method ?? "GET", pathname)
      if (match._tag === "NotFound")
        return fail(req, res, ApiErrors.webFramework(404, `Not Found: ${pathname.slice(0, 300)}`), "unmatched", start)
      if (match._tag === "MethodNotAllowed")
        return send(
          req,
          res,
          errorReply(ApiErrors.webFramework(405, "Method Not Allowed"), ["allow", match.allow.join(", ")]),
          "unmatched",
          start
        )
      const id = match.route.id
      const spec = specs[id]
      const query = q < 0 ? EMPTY_QUERY : parseQuery(url.slice(q + 1))
      if (typeof query === "string") return fail(req, res, ApiErrors.webFramework(400, query), id, start)
      const bcs = wantsBcs(req.headers.accept)
      if (spec.bodyTypes === undefined || (spec.bodyOptional === true && withoutBody(req)))
        return run(
          req,
          res,
          spec,
          { params: match.params, query, bcs, body: undefined, mediaType: undefined },
          id,
          start
        )
      const framing = checkFraming(req, config.maxBodyBytes)
      if (framing !== undefined) return fail(req, res, framing, id, start, true)
      const type = mediaType(req.headers["content-type"])
      if (type === undefined || !spec.bodyTypes.includes(type))
        return fail(req, res, unsupportedMediaType(req.headers["content-type"]), id, start, true)
      readBody(req, config.maxBodyBytes).then(
        (body) => {
          if (!(body instanceof Uint8Array)) return fail(req, res, body, id, start, true)
          const handle = () => {
            try {
              run(req, res, spec, { params: match.params, query, bcs, body, mediaType: type }, id, start)
            } catch (e) {
              defect(req, res, e, id, start)
            }
          }
          const intake = config.bodyIntake
          if (intake === undefined) return handle()
          if (intake.waiting >= config.maxConnections) return fail(req, res, intakeFull(intake.waiting), id, start)
          intake.run(handle)
        },
        (e) => defect(req, res, e, id, start)
      )
    } catch (e) {
      defect(req, res, e, "unmatched", start)
    }
  }
  return listener
}
