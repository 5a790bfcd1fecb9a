/**
 * The front process's reading of a request's head (`frontMain.ts`): only as much as it needs to
 * answer the readiness server's few requests and the API's reads itself, and to know which those
 * are; everything else it hands on unread. Pure, and total: any bytes give a head or `undefined`,
 * never a throw.
 */

export interface RequestHead {
  readonly method: string
  /** The request target's path, without the query. */
  readonly path: string
  /** The request target as sent (path and query). */
  readonly target: string
  /** `1.0` or `1.1`. */
  readonly version: string
  /** Lower-cased names; the last of repeated ones. */
  readonly headers: ReadonlyMap<string, string>
  /** Bytes up to and including the blank line. */
  readonly length: number
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) HTTP\/(1\.[01])$/

/** Where the head ends (the index after CRLF CRLF), or -1. */
export const headEnd = (bytes: Uint8Array): number => {
  for (let i = 3; i < bytes.length; i++)
    if (bytes[i] === 10 && bytes[i - 1] === 13 && bytes[i - 2] === 10 && bytes[i - 3] === 13) return i + 1
  return -1
}

/** The head at the start of `bytes`, or undefined when it is incomplete or not a well-formed HTTP/1.x head. */
export const parseRequestHead = (bytes: Uint8Array): RequestHead | undefined => {
  const end = headEnd(bytes)
  if (end < 0) return undefined
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, end - 4).toString("latin1")
  const lines = text.split("\r\n")
  const line = REQUEST_LINE.exec(lines[0] ?? "")
  if (line === null) return undefined
  const headers = new Map<string, string>()
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i]!
    const colon = l.indexOf(":")
    if (colon <= 0) return undefined
    const name = l.slice(0, colon)
    if (!TOKEN.test(name)) return undefined
    headers.set(name.toLowerCase(), l.slice(colon + 1).trim())
  }
  const target = line[2]!
  const q = target.indexOf("?")
  return {
    method: line[1]!,
    path: q < 0 ? target : target.slice(0, q),
    target,
    version: line[3]!,
    headers,
    length: end
  }
}

/** Whether the request says a body follows (which the front does not read). */
export const hasBody = (head: RequestHead): boolean => {
  const length = head.headers.get("content-length")
  return head.headers.has("transfer-encoding") || (length !== undefined && length !== "0")
}

/** Whether the connection stays open after the answer (HTTP/1.1 unless `close`; 1.0 only with `keep-alive`). */
export const keepsAlive = (head: RequestHead): boolean => {
  const connection = (head.headers.get("connection") ?? "").toLowerCase()
  return head.version === "1.1" ? !/\bclose\b/.test(connection) : /\bkeep-alive\b/.test(connection)
}

/**
 * What the front does with a request (`frontReads.ts`):
 * - `"read"`: a GET or HEAD without a body under `/v1` that reads committed state — the ledger,
 *   accounts, resources, modules, transactions, blocks, events, health, the gas estimate (from the
 *   committed blocks, with the node's settings, as the node's estimator computes it) — answered by
 *   the front;
 * - `"lookup"`: a bodiless GET or HEAD of a transaction by hash (`by_hash`, `wait_by_hash`): answered
 *   by the front when the transaction is committed (or the hash is malformed), handed to the node
 *   when the front's store does not have it (it may be pending, in the node's mempool, which the
 *   node looks in first and `wait_by_hash` waits on);
 * - `"node"`: anything else (a submission, a view, a control, what is not under `/v1`): the node's.
 */
export type FrontRequestKind = "read" | "lookup" | "node"

const HASH_LOOKUP = /^\/v1\/transactions\/(by_hash|wait_by_hash)\//

export const frontRequestKind = (head: RequestHead): FrontRequestKind => {
  if ((head.method !== "GET" && head.method !== "HEAD") || hasBody(head)) return "node"
  if (head.path !== "/v1" && !head.path.startsWith("/v1/")) return "node"
  return HASH_LOOKUP.test(head.path) ? "lookup" : "read"
}
