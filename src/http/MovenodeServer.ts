import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Node } from "../node/Node.js"
import { clientErrorHandler } from "./clientErrorHandler.js"
import { type HttpConfig, type ListenAddress, makeHttpConfig } from "./HttpConfig.js"
import { makeHttpMetrics } from "./Metrics.js"
import { makeRequestListener } from "./RequestListener.js"

export interface MovenodeServerInfo {
  /** Where the API listens (the real port when 0 was asked for). */
  readonly address: ListenAddress
  readonly metricsAddress: ListenAddress | undefined
}

const listen = (server: Server, at: ListenAddress) =>
  Effect.callback<ListenAddress, Error>((resume) => {
    const onError = (e: Error) => resume(Effect.fail(e))
    server.once("error", onError)
    server.listen(at.port, at.host, () => {
      server.off("error", onError)
      const a = server.address() as AddressInfo
      resume(Effect.succeed({ host: a.address, port: a.port }))
    })
  })

/**
 * Graceful close: stop accepting, let in-flight requests finish (idle keep-alive sockets are
 * closed at once), and after `graceMs` close whatever is still open.
 */
const close = (server: Server, graceMs: number) =>
  Effect.callback<void>((resume) => {
    const timer = setTimeout(() => server.closeAllConnections(), graceMs)
    server.close(() => {
      clearTimeout(timer)
      resume(Effect.void)
    })
    server.closeIdleConnections()
  })

const serve = (server: Server, at: ListenAddress, graceMs: number) =>
  Effect.acquireRelease(listen(server, at), () => close(server, graceMs))

/**
 * The HTTP server over the `Node` service: the API on `config.listen`, Prometheus metrics on
 * `config.metricsListen` (a separate port). Closing the layer's scope shuts both down gracefully,
 * before the layers below (the node, the ledger) are released.
 */
export class MovenodeServer extends Context.Service<MovenodeServer, MovenodeServerInfo>()("movenode/http/MovenodeServer") {
  static readonly layer = (overrides: Partial<HttpConfig> = {}): Layer.Layer<MovenodeServer, Error, Node> =>
    Layer.effect(
      MovenodeServer,
      Effect.gen(function* () {
        const config = makeHttpConfig(overrides)
        const node = yield* Node
        const metrics = config.metricsListen === undefined ? undefined : makeHttpMetrics()
        const server = createServer(
          { requestTimeout: config.requestTimeoutMs, headersTimeout: Math.min(config.requestTimeoutMs, 60_000) },
          makeRequestListener(node, config, metrics)
        )
        server.on("clientError", clientErrorHandler)
        const address = yield* serve(server, config.listen, config.shutdownGraceMs)
        let metricsAddress: ListenAddress | undefined
        if (metrics !== undefined && config.metricsListen !== undefined) {
          const metricsServer = createServer((req, res) => {
            const ok = req.method === "GET" && (req.url === "/metrics" || req.url === "/")
            res.writeHead(ok ? 200 : 404, { "content-type": ok ? "text/plain; version=0.0.4" : "text/plain" })
            res.end(ok ? metrics.render() : "not found\n")
          })
          metricsAddress = yield* serve(metricsServer, config.metricsListen, 1000)
        }
        config.log?.(`movenode listening on http://${address.host}:${address.port}/v1`)
        return { address, metricsAddress }
      })
    )
}

/** The server layer (alias of `MovenodeServer.layer`). */
export const serverLayer = MovenodeServer.layer
