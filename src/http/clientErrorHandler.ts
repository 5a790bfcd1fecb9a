import type { Duplex } from "node:stream"
import { ApiErrors } from "../domain/ApiError.js"
import { errorBodyJson } from "./Reply.js"

const STATUS_TEXT: Record<number, string> = { 400: "Bad Request", 408: "Request Timeout", 431: "Request Header Fields Too Large" }

/**
 * Requests Node's HTTP parser rejects before any handler runs (a malformed request line, headers
 * too large, a request that took too long) still get the contract's JSON error body, then the
 * connection is closed.
 */
export const clientErrorHandler = (err: NodeJS.ErrnoException, socket: Duplex): void => {
  if (err.code === "ECONNRESET" || !socket.writable) {
    socket.destroy()
    return
  }
  const status = err.code === "HPE_HEADER_OVERFLOW" ? 431 : err.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400
  const body = errorBodyJson(ApiErrors.webFramework(status, `Malformed HTTP request (${err.code ?? "parse error"})`))
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
  )
}
