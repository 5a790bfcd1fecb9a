/**
 * What the local chain's side servers (faucet, readiness, GraphQL stub) share: listening in a
 * scope (closed gracefully with it), bounded bodies, replies with CORS for any origin (the
 * reference's faucet allows GET and POST from anywhere; wallets and dapps call it from browsers).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { readBody } from "./Body.js"
import { defaultHttpConfig, type ListenAddress } from "./HttpConfig.js"
import { SIDE_CORS } from "./sideCors.js"

export type SideListener = (req: IncomingMessage, res: ServerResponse) => void

export const reply = (res: ServerResponse, status: number, contentType: string, body: string): void => {
  if (res.headersSent || res.destroyed) return
  const headers: Array<string> = ["content-type", contentType, "content-length", String(Buffer.byteLength(body))]
  for (const [k, v] of SIDE_CORS) headers.push(k, v)
  res.writeHead(status, headers)
  res.end(body)
}

export const replyJson = (res: ServerResponse, status: number, value: unknown): void =>
  reply(res, status, "application/json", JSON.stringify(value))

/** A CORS preflight answered (204); true when `req` was one. */
export const preflight = (req: IncomingMessage, res: ServerResponse): boolean => {
  if (req.method !== "OPTIONS") return false
  reply(res, 204, "text/plain", "")
  return true
}

/** Reads a body of at most `limit` bytes; undefined when it was larger or unreadable. */
export const readSmallBody = async (req: IncomingMessage, limit: number): Promise<Uint8Array | undefined> => {
  const length = req.headers["content-length"]
  if (length !== undefined && (!/^[0-9]{1,16}$/.test(length) || Number(length) > limit)) return undefined
  const body = await readBody(req, limit)
  return body instanceof Uint8Array ? body : undefined
}

/** Parses JSON without throwing. */
export const parseJson = (bytes: Uint8Array): { readonly value: unknown } | { readonly error: string } => {
  try {
    return { value: JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8")) }
  } catch (e) {
    return { error: e instanceof Error ? e.message : "invalid JSON" }
  }
}

/**
 * Serves `listener` on `at` for the scope's lifetime (the real port when 0 is asked). A throw in
 * the listener becomes a 500, never a crash.
 */
export const serveScoped = (
  listener: SideListener,
  at: ListenAddress,
  requestTimeoutMs = 30_000
): Effect.Effect<ListenAddress, Error, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.callback<{ readonly server: Server; readonly address: ListenAddress }, Error>((resume) => {
      const server = createServer(
        { requestTimeout: requestTimeoutMs, headersTimeout: Math.min(requestTimeoutMs, 60_000) },
        (req, res) => {
          try {
            listener(req, res)
          } catch (e) {
            reply(res, 500, "text/plain", `internal error: ${e instanceof Error ? e.message : String(e)}`.slice(0, 300))
          }
        }
      )
      // As the API's (HttpConfig.keepAliveTimeoutMs): idle kept-alive connections are not closed
      // under a client about to reuse them.
      server.keepAliveTimeout = defaultHttpConfig.keepAliveTimeoutMs
      server.on("clientError", (_e, socket) => socket.destroy())
      const onError = (e: Error) => resume(Effect.fail(e))
      server.once("error", onError)
      server.listen(at.port, at.host, () => {
        server.off("error", onError)
        const a = server.address() as AddressInfo
        resume(Effect.succeed({ server, address: { host: a.address, port: a.port } }))
      })
    }),
    ({ server }) =>
      Effect.callback<void>((resume) => {
        const timer = setTimeout(() => server.closeAllConnections(), 1000)
        server.close(() => {
          clearTimeout(timer)
          resume(Effect.void)
        })
        server.closeIdleConnections()
      })
  ).pipe(Effect.map(({ address }) => address))
