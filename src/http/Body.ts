import type { IncomingMessage } from "node:http"
import { type ApiError, ApiErrors } from "../domain/ApiError.js"
import { boundedPrefix } from "../domain/boundedText.js"
import { defaultJsonBodyLimits, type JsonBodyLimits, scanJsonLimits } from "./JsonScan.js"

/**
 * POST framing: 411 without a length (and not chunked), 413 above the limit (decided from
 * Content-Length before reading; for chunked bodies as soon as the running total passes it, so no
 * more than `limit` bytes are ever held), 415 for a media type the endpoint does not take.
 */

/** The media type of a Content-Type header: lowercased, parameters dropped. */
export const mediaType = (contentType: string | undefined): string | undefined => {
  if (contentType === undefined) return undefined
  const semi = contentType.indexOf(";")
  return (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase()
}

export const unsupportedMediaType = (contentType: string | undefined): ApiError =>
  ApiErrors.webFramework(
    415,
    `the \`Content-Type\` requested by the client is not supported: ${(contentType ?? "").slice(0, 200)}`
  )

/** The checks that need no body bytes: an ApiError, or undefined when the body may be read. */
export const checkFraming = (req: IncomingMessage, limit: number): ApiError | undefined => {
  const length = req.headers["content-length"]
  if (length === undefined) {
    if (!isChunked(req)) return ApiErrors.webFramework(411, "Missing Content-Length header")
    return undefined
  }
  if (!/^[0-9]{1,16}$/.test(length)) return ApiErrors.webFramework(400, "Invalid Content-Length header")
  if (Number(length) > limit) return tooLarge(limit)
  return undefined
}

const isChunked = (req: IncomingMessage) => /chunked/i.test(req.headers["transfer-encoding"] ?? "")

export const tooLarge = (limit: number): ApiError =>
  ApiErrors.webFramework(413, `Payload too large: the request body exceeds the limit of ${limit} bytes`)

/** Reads the body, never holding more than `limit` bytes. Resolves to the bytes or an ApiError. */
export const readBody = (req: IncomingMessage, limit: number): Promise<Uint8Array | ApiError> =>
  new Promise((resolve) => {
    const chunks: Array<Buffer> = []
    let total = 0
    let done = false
    const finish = (v: Uint8Array | ApiError) => {
      if (done) return
      done = true
      req.off("data", onData)
      req.off("end", onEnd)
      req.off("error", onError)
      req.off("close", onClose)
      resolve(v)
    }
    const onData = (chunk: Buffer) => {
      total += chunk.length
      if (total > limit) {
        chunks.length = 0
        // Stop reading: the connection is closed once the 413 is written (see Server.ts).
        req.pause()
        finish(tooLarge(limit))
        return
      }
      chunks.push(chunk)
    }
    const onEnd = () => finish(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total))
    const onError = () => finish(ApiErrors.webFramework(400, "parse request payload error: the body could not be read"))
    // A client that goes away mid-body: settle, so nothing waits on a request that cannot end.
    const onClose = () =>
      finish(ApiErrors.webFramework(400, "parse request payload error: the connection closed before the body ended"))
    req.on("data", onData)
    req.on("end", onEnd)
    req.on("error", onError)
    req.on("close", onClose)
  })

/**
 * Parses a JSON POST body, bounded in work as well as in bytes: every JSON endpoint parses its body
 * here. The body is first scanned against `limits` (nesting, values, arrays and objects: see
 * `JsonScan.ts`), so a body that would hold the event loop in `JSON.parse` is refused before it is
 * parsed; then `JSON.parse`. Either failure is 400 `web_framework_error`, its message bounded.
 */
export const parseJsonBody = (
  bytes: Uint8Array,
  limits: JsonBodyLimits = defaultJsonBodyLimits
): { readonly ok: true; readonly value: unknown } | ApiError => {
  const over = scanJsonLimits(bytes, limits)
  if (over !== undefined)
    return ApiErrors.webFramework(400, `parse request payload error: ${over} (a limit of this node)`)
  try {
    return {
      ok: true,
      value: JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"))
    }
  } catch (e) {
    // V8's message quotes the text around the error: bounded like any quoted input.
    return ApiErrors.webFramework(
      400,
      `parse request payload error: ${boundedPrefix(e instanceof Error ? e.message : "invalid JSON")}`
    )
  }
}
