import type { IncomingMessage } from "node:http"
import type { LedgerHeaders } from "./LedgerHeaders.js"

/**
 * Which browser origins may call the API (`HttpConfig.cors`): `"any"` (the default, as the
 * reference node and contract.md: every response allows any origin), a list of origins
 * (`["https://explorer.example"]`), or `false` (no CORS headers; `OPTIONS` is 405 like any method
 * a route does not serve).
 */
export type CorsPolicy = "any" | ReadonlyArray<string> | false

/**
 * CORS as the reference node answers it (poem's `Cors` with credentials allowed and GET/POST): the
 * allowed origin is the request's `Origin` echoed back (`*` when the request names none, e.g.
 * curl or an SDK in Node.js), with `Access-Control-Allow-Credentials: true` and `Vary: Origin`;
 * a preflight (`OPTIONS` with `Access-Control-Request-Method`) on any path is answered 200 with the
 * methods GET and POST, the request headers it asked for, and a max age of a day.
 *
 * One addition: `Access-Control-Expose-Headers` names the ledger headers, the gas used and the
 * cursor, so a page can read them (without it a browser hides every non-standard header).
 *
 * Cost on the hot path: a request without `Origin` (every non-browser client) gets one constant
 * header pair appended; the rest is computed only for browser requests.
 */
export interface Cors {
  /** Headers (flat `[name, value, …]`) to add to a response to `req`; empty when none apply. */
  readonly responseHeaders: (req: IncomingMessage) => ReadonlyArray<string>
  /** The headers of the answer to a preflight, or undefined when `req` is not one. */
  readonly preflight: (req: IncomingMessage) => ReadonlyArray<string> | undefined
}

const ANY_ORIGIN = ["access-control-allow-origin", "*"]
const NONE: ReadonlyArray<string> = []
const MAX_ECHOED = 1024

export const makeCors = (policy: CorsPolicy, headers: LedgerHeaders): Cors | undefined => {
  if (policy === false) return undefined
  const n = headers.names
  const expose = [
    n.chainId,
    n.ledgerVersion,
    n.oldestLedgerVersion,
    n.ledgerTimestampUsec,
    n.epoch,
    n.blockHeight,
    n.oldestBlockHeight,
    n.gasUsed,
    n.cursor
  ].join(", ")
  const allowed = policy === "any" ? undefined : new Set(policy)
  /** The origin to echo, or undefined when the request's is absent, malformed or not allowed. */
  const originOf = (req: IncomingMessage): string | undefined => {
    const origin = req.headers.origin
    if (origin === undefined || origin.length > MAX_ECHOED || /[\r\n]/.test(origin)) return undefined
    return allowed === undefined || allowed.has(origin) ? origin : undefined
  }
  const forOrigin = (origin: string) => [
    "access-control-allow-origin",
    origin,
    "access-control-allow-credentials",
    "true",
    "access-control-expose-headers",
    expose,
    "vary",
    "origin"
  ]
  return {
    responseHeaders: (req) => {
      if (req.headers.origin === undefined) return allowed === undefined ? ANY_ORIGIN : NONE
      const origin = originOf(req)
      return origin === undefined ? NONE : forOrigin(origin)
    },
    preflight: (req) => {
      if (req.method !== "OPTIONS" || req.headers["access-control-request-method"] === undefined) return undefined
      const origin = originOf(req)
      if (origin === undefined) return allowed === undefined ? ANY_ORIGIN : NONE
      const requested = req.headers["access-control-request-headers"]
      return [
        "access-control-allow-origin",
        origin,
        "access-control-allow-credentials",
        "true",
        "access-control-allow-methods",
        "GET, POST",
        ...(requested !== undefined && requested.length <= MAX_ECHOED && !/[\r\n]/.test(requested)
          ? ["access-control-allow-headers", requested]
          : []),
        "access-control-max-age",
        "86400",
        "vary",
        "origin, access-control-request-method, access-control-request-headers"
      ]
    }
  }
}
