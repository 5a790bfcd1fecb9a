import { readFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo, Socket } from "node:net"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { Node } from "../node/Node.js"
import { NodeConfig } from "../node/NodeConfig.js"
import { FrontProcess } from "./front/FrontProcess.js"
import { frontPagesOf, gasEstimationToWire } from "./front/protocol.js"
import { addExtraAcceptors, type ExtraAcceptors } from "./extraAcceptors.js"
import { makeClientErrorHandler, makeConnectionLimiter, makeExpectationHandler } from "./clientErrorHandler.js"
import { type HttpConfig, type ListenAddress, makeHttpConfig } from "./HttpConfig.js"
import { type HttpMetrics, makeHttpMetrics } from "./Metrics.js"
import { makeRequestListener, type ServerLifecycle } from "./RequestListener.js"

export interface MovenodeServerInfo {
  /** Where the API listens (the real port when 0 was asked for). */
  readonly address: ListenAddress
  readonly metricsAddress: ListenAddress | undefined
  /** How many connections the API server holds now (for operators and tests). */
  readonly connections: () => Promise<number>
  /** Resolves with how many duplicates of the listening socket accept too (`HttpConfig.acceptors`). */
  readonly acceptors: Promise<number>
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
 * closed at once, and responses sent meanwhile carry `Connection: close`, see `lifecycle`), and
 * after `graceMs` close whatever is still open.
 */
const close = (server: Server, graceMs: number, lifecycle?: ServerLifecycle, acceptors?: ExtraAcceptors) =>
  Effect.callback<void>((resume) => {
    if (lifecycle !== undefined) lifecycle.closing = true
    const timer = setTimeout(() => server.closeAllConnections(), graceMs)
    // Connections accepted through a duplicate are the server's too (closeIdle/closeAll reach them).
    const duplicates = acceptors?.close() ?? Promise.resolve()
    server.close(() => {
      void duplicates.then(() => {
        clearTimeout(timer)
        resume(Effect.void)
      })
    })
    server.closeIdleConnections()
  })

/**
 * Graceful close of the connections a front process handed over (`front/FrontProcess.ts`), once it
 * has stopped accepting: idle ones at once, the rest when their answers are sent, whatever is left
 * after `graceMs`. (The server never listened itself, so `server.close` does not wait for them.)
 */
const closeHandedOver = (server: Server, open: Set<Socket>, graceMs: number, lifecycle: ServerLifecycle) =>
  Effect.callback<void>((resume) => {
    lifecycle.closing = true
    server.closeIdleConnections()
    const deadline = performance.now() + graceMs
    const check = setInterval(() => {
      if (open.size > 0 && performance.now() < deadline) return server.closeIdleConnections()
      clearInterval(check)
      server.closeAllConnections()
      for (const socket of open) socket.destroy()
      // Stops the connections' timeout checks started at its `listening` (see the front branch below).
      server.close()
      resume(Effect.void)
    }, 20)
  })

/** The soft limit on this process's open files (Linux `/proc/self/limits`), undefined elsewhere. */
const openFilesLimit = (): number | undefined => {
  try {
    const m = /^Max open files\s+(\d+)/m.exec(readFileSync("/proc/self/limits", "utf8"))
    return m === null ? undefined : Number(m[1])
  } catch {
    return undefined
  }
}

/**
 * The connection limit in force: the configured one, but below the open-files limit (less 256
 * descriptors for the store, the workers and the metrics server), so a crowd of clients is answered
 * 503 by the limiter rather than running the process out of descriptors.
 */
export const connectionLimit = (configured: number, openFiles: number | undefined): number =>
  openFiles === undefined ? configured : Math.max(1, Math.min(configured, openFiles - 256))

/** Listens (with `acceptors` duplicates of the socket, `extraAcceptors.ts`) for the scope's lifetime. */
const serve = (server: Server, at: ListenAddress, graceMs: number, lifecycle?: ServerLifecycle, acceptors = 0) =>
  Effect.acquireRelease(
    Effect.map(listen(server, at), (address) => ({
      address,
      acceptors: addExtraAcceptors(server, acceptors, (e) => server.emit("error", e))
    })),
    ({ acceptors }) => close(server, graceMs, lifecycle, acceptors)
  )

/** Prometheus metrics on their own port, when asked for. */
const serveMetrics = (metrics: HttpMetrics | undefined, config: HttpConfig) =>
  Effect.gen(function* () {
    if (metrics === undefined || config.metricsListen === undefined) return undefined
    const metricsServer = createServer((req, res) => {
      const ok = req.method === "GET" && (req.url === "/metrics" || req.url === "/")
      res.writeHead(ok ? 200 : 404, { "content-type": ok ? "text/plain; version=0.0.4" : "text/plain" })
      res.end(ok ? metrics.render() + (config.replica?.prometheus() ?? "") : "not found\n")
    })
    return (yield* serve(metricsServer, config.metricsListen, 1000)).address
  })

/**
 * The HTTP server over the `Node` service: the API on `config.listen`, Prometheus metrics on
 * `config.metricsListen` (a separate port). Closing the layer's scope shuts both down gracefully,
 * before the layers below (the node, the ledger) are released.
 */
export class MovenodeServer extends Context.Service<MovenodeServer, MovenodeServerInfo>()(
  "movenode/http/MovenodeServer"
) {
  static readonly layer = (overrides: Partial<HttpConfig> = {}): Layer.Layer<MovenodeServer, Error, Node> =>
    Layer.effect(
      MovenodeServer,
      Effect.gen(function* () {
        const config = makeHttpConfig(overrides)
        const node = yield* Node
        const metrics = config.metricsListen === undefined ? undefined : makeHttpMetrics()
        const lifecycle: ServerLifecycle = { closing: false }
        const server = createServer(
          {
            requestTimeout: config.requestTimeoutMs,
            headersTimeout: Math.min(config.requestTimeoutMs, 60_000),
            // Timed-out requests are found by a periodic check: often enough that a silent client
            // is answered 408 (and its socket freed) soon after its time is up.
            connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(config.requestTimeoutMs / 10))),
            // Checked by the listener, which answers the JSON error body (Node's own 400 is empty).
            requireHostHeader: false
          },
          makeRequestListener(node, config, metrics, lifecycle)
        )
        server.keepAliveTimeout = config.keepAliveTimeoutMs
        server.on("clientError", makeClientErrorHandler(metrics))
        server.on("checkExpectation", makeExpectationHandler(metrics))
        const maxConnections = connectionLimit(config.maxConnections, openFilesLimit())
        if (maxConnections < config.maxConnections)
          config.log?.(`maxConnections lowered to ${maxConnections} by the process's open-files limit`)
        server.on("connection", makeConnectionLimiter(maxConnections, metrics))
        // With a front process in the context (front/FrontProcess.ts), it holds the API's listening
        // socket and hands each connection here, its first bytes read; this server never listens.
        const front = yield* Effect.serviceOption(FrontProcess)
        if (Option.isSome(front)) {
          const open = new Set<Socket>()
          server.on("connection", (socket: Socket) => {
            open.add(socket)
            socket.once("close", () => open.delete(socket))
          })
          // Registered first, so it runs after the front has stopped accepting.
          yield* Effect.addFinalizer(() => closeHandedOver(server, open, config.shutdownGraceMs, lifecycle))
          // Node's HTTP server tracks its connections — the request and header timeouts that answer
          // a client too slow to send its request 408 — from its `listening` event, which a server
          // that never listens does not have: without this, a handed-over connection could hold
          // its socket for as long as its client wanted.
          server.emit("listening")
          const nodeConfig = yield* NodeConfig
          const address = yield* front.value.serveApi(config.listen, server, {
            headerPrefix: config.headerPrefix,
            gitHash: config.gitHash,
            logRequests: config.log !== undefined,
            pages: frontPagesOf(nodeConfig),
            gasEstimation: gasEstimationToWire(nodeConfig.gasEstimation)
          })
          const metricsAddress = yield* serveMetrics(metrics, config)
          config.log?.(`movenode listening on http://${address.host}:${address.port}/v1 (through the front process)`)
          return { address, metricsAddress, connections: async () => open.size, acceptors: Promise.resolve(0) }
        }
        const { address, acceptors } = yield* serve(
          server,
          config.listen,
          config.shutdownGraceMs,
          lifecycle,
          config.acceptors
        )
        // A failed accept (EMFILE when descriptors run out) is emitted as the server's 'error':
        // without a listener that would end the process. The client's connection is dropped.
        server.on("error", (e) => config.log?.(`the API server could not accept a connection: ${e.message}`))
        // Without its duplicates (no helper process could run) the server accepts as before, one
        // connection per turn: said once, on stderr even when quiet, never a failed start.
        void acceptors.ready.then((n) => {
          if (n < config.acceptors && !lifecycle.closing)
            (config.log ?? ((line: string) => process.stderr.write(`${line}\n`)))(
              `movenode: ${n} of ${config.acceptors} extra acceptors for the API (extraAcceptors.ts): new connections are accepted one per event-loop turn`
            )
        })
        const metricsAddress = yield* serveMetrics(metrics, config)
        config.log?.(`movenode listening on http://${address.host}:${address.port}/v1`)
        const connections = async () =>
          (await new Promise<number>((resolve, reject) =>
            server.getConnections((e, n) => (e ? reject(e) : resolve(n)))
          )) + (await acceptors.connections())
        return { address, metricsAddress, connections, acceptors: acceptors.ready }
      })
    )
}

/** The server layer (alias of `MovenodeServer.layer`). */
export const serverLayer = MovenodeServer.layer
