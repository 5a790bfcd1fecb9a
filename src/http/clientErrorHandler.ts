import type { IncomingMessage, ServerResponse } from "node:http"
import type { Socket } from "node:net"
import type { Duplex } from "node:stream"
import { type ApiError, ApiErrors } from "../domain/ApiError.js"
import { quoteString } from "../domain/boundedText.js"
import type { HttpMetrics } from "./Metrics.js"
import { errorBodyJson } from "./Reply.js"

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  408: "Request Timeout",
  413: "Payload Too Large",
  417: "Expectation Failed",
  431: "Request Header Fields Too Large",
  503: "Service Unavailable"
}

/** How long a refused socket may take to drain its response before it is destroyed anyway. */
const FLUSH_TIMEOUT_MS = 2000

/** The metrics label of requests refused before any route was matched. */
export const REFUSED_ROUTE = "refused"

/**
 * Writes a whole error response on a raw socket and destroys the socket once it is flushed (or
 * after `FLUSH_TIMEOUT_MS` when the client does not read): `end()` alone only half-closes, and a
 * client that never closes its side would hold the file descriptor for as long as it likes.
 */
export const refuseSocket = (socket: Duplex, e: ApiError, metrics: HttpMetrics | undefined): void => {
  metrics?.observe(REFUSED_ROUTE, e.status, 0)
  if (socket.destroyed) return
  if (!socket.writable) {
    socket.destroy()
    return
  }
  const body = errorBodyJson(e)
  const timer = setTimeout(() => socket.destroy(), FLUSH_TIMEOUT_MS)
  timer.unref()
  socket.end(
    `HTTP/1.1 ${e.status} ${STATUS_TEXT[e.status] ?? "Error"}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    () => {
      clearTimeout(timer)
      socket.destroy()
    }
  )
}

/**
 * Requests Node's HTTP parser rejects before any handler runs (a malformed request line, headers
 * too large, a request that took too long) still get the contract's JSON error body, are counted
 * in the metrics (route `refused`), and their socket is destroyed once the response is flushed.
 */
export const makeClientErrorHandler =
  (metrics: HttpMetrics | undefined) =>
  (err: NodeJS.ErrnoException, socket: Duplex): void => {
    if (err.code === "ECONNRESET") {
      socket.destroy()
      return
    }
    const status = err.code === "HPE_HEADER_OVERFLOW" ? 431 : err.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400
    refuseSocket(
      socket,
      ApiErrors.webFramework(status, `Malformed HTTP request (${err.code ?? "parse error"})`),
      metrics
    )
  }

/**
 * The connection limit (`HttpConfig.maxConnections`): a connection past it is answered 503 with
 * the JSON error body and closed at once, counted in the metrics. Returns the `connection` listener.
 */
export const makeConnectionLimiter = (maxConnections: number, metrics: HttpMetrics | undefined) => {
  let open = 0
  return (socket: Socket): void => {
    open++
    socket.once("close", () => open--)
    if (open > maxConnections)
      refuseSocket(
        socket,
        ApiErrors.webFramework(503, `Service Unavailable: the node holds its maximum of ${maxConnections} connections`),
        metrics
      )
  }
}

/**
 * `Expect` other than `100-continue`: 417 with the JSON error body (Node's own answer has none),
 * counted in the metrics; the connection is closed after it (the body was never read).
 */
export const makeExpectationHandler =
  (metrics: HttpMetrics | undefined) =>
  (req: IncomingMessage, res: ServerResponse): void => {
    metrics?.observe(REFUSED_ROUTE, 417, 0)
    const body = errorBodyJson(
      ApiErrors.webFramework(
        417,
        `Expectation Failed: unsupported Expect header ${quoteString(req.headers.expect ?? "", 64)}`
      )
    )
    res.writeHead(417, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      connection: "close"
    })
    res.end(body)
  }
