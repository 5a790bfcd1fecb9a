/**
 * The follower's side of a source's REST API: the BCS block feed and the few other questions a
 * follower asks, over HTTP keep-alive (`fetch`). Every answer is classified once here:
 *
 * - 200: decoded (`sourceBlock.ts`);
 * - 404 `version_not_found` / `block_not_found`: the source has not reached the version yet (`Ahead`);
 * - 410: the source pruned what the follower needs (it must start from a source holding it);
 * - connection failures, timeouts, 429 and 5xx: `SourceUnavailable` (the follower retries);
 * - any other answer, or bytes that do not decode: `SourceInvalid`.
 *
 * Requests go through `node:http(s)` with a keep-alive agent rather than `fetch`: a block request
 * cost ~350 µs of CPU instead of ~930 (measured on the shared box, session 8), which counts once per
 * block while following and once per block or page while catching up.
 *
 * A movenode source honours `X-Movenode-Min-Ledger-Version` and `X-Movenode-Wait-Ms`
 * (docs/scale-out.md): asked for a block it does not hold yet, it answers as soon as it holds it
 * (a long poll) instead of at once. Other sources ignore the headers and the follower polls.
 */
import http, { type IncomingHttpHeaders } from "node:http"
import https from "node:https"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import { type FollowError, SourceInvalid, SourceUnavailable } from "./FollowError.js"
import {
  decodeSourceBlock,
  decodeSourceTransactionData,
  decodeSourceTransactions,
  type SourceBlock,
  type SourceTransaction
} from "./sourceBlock.js"

/** What the source's ledger headers said with an answer. */
export interface SourceHead {
  readonly chainId: number | undefined
  readonly ledgerVersion: bigint | undefined
  readonly ledgerTimestampUsec: bigint | undefined
  readonly oldestLedgerVersion: bigint | undefined
  readonly blockHeight: bigint | undefined
}

export type BlockAnswer =
  | { readonly _tag: "Block"; readonly block: SourceBlock; readonly head: SourceHead; readonly receivedAtMs: number }
  | { readonly _tag: "Ahead"; readonly head: SourceHead }

export interface FeedClientOptions {
  /** The source's API, `http://host:port/v1` (a trailing slash is dropped). */
  readonly url: string
  /** Per request (default 10 s; a long poll adds its wait). */
  readonly timeoutMs?: number | undefined
  /** The page size asked of `/transactions` for the rest of a long block (the reference's maximum is 100). */
  readonly pageSize?: number | undefined
}

export interface FeedClient {
  readonly url: string
  /**
   * The block holding `version` with its transactions, complete (a block longer than the source's
   * page is completed from `/transactions`), or `Ahead` when the source has not reached it;
   * `waitMs` > 0 asks a movenode source to hold the request until it has.
   */
  readonly blockAt: (version: bigint, waitMs: number) => Effect.Effect<BlockAnswer, FollowError>
  /**
   * The block at `height` with its transactions, complete, or `Ahead` when the source has not made
   * it yet (no wait: used while catching up, several heights at once).
   */
  readonly blockAtHeight: (height: bigint) => Effect.Effect<BlockAnswer, FollowError>
  /** The committed transaction at `version` (undefined when the source has not reached it). */
  readonly transactionAt: (version: bigint) => Effect.Effect<SourceTransaction | undefined, FollowError>
  /** The source's ledger headers (`GET /v1`). */
  readonly head: Effect.Effect<SourceHead, FollowError>
}

const BCS = "application/x-bcs"

/** An answer's headers: node's (lower-case names) or WHATWG `Headers`. */
type AnswerHeaders = IncomingHttpHeaders | Headers

const entriesOf = (h: AnswerHeaders): Iterable<[string, string]> =>
  h instanceof Headers
    ? h
    : Object.entries(h).flatMap(
        ([k, v]): Array<[string, string]> => (v === undefined ? [] : [[k, Array.isArray(v) ? v.join(", ") : v]])
      )

const headerValue = (h: AnswerHeaders, name: string): string | null => {
  if (h instanceof Headers) return h.get(name)
  const v = h[name]
  return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v
}

const header = (h: AnswerHeaders, name: string): string | null => {
  const direct = headerValue(h, `x-aptos-${name}`)
  if (direct !== null) return direct
  // A movenode `run` source may use another prefix (`--header-prefix`).
  for (const [k, v] of entriesOf(h)) if (k.endsWith(`-${name}`) && !k.endsWith(`-oldest-${name}`)) return v
  return null
}

const bigintOf = (s: string | null): bigint | undefined =>
  s !== null && /^[0-9]{1,20}$/.test(s) ? BigInt(s) : undefined

export const sourceHeadOf = (h: AnswerHeaders): SourceHead => {
  const chain = header(h, "chain-id")
  return {
    chainId: chain !== null && /^[0-9]{1,3}$/.test(chain) ? Number(chain) : undefined,
    ledgerVersion: bigintOf(header(h, "ledger-version")),
    ledgerTimestampUsec: bigintOf(header(h, "ledger-timestampusec")),
    oldestLedgerVersion: bigintOf(headerValue(h, "x-aptos-ledger-oldest-version")),
    blockHeight: bigintOf(header(h, "block-height"))
  }
}

interface Answer {
  readonly status: number
  readonly head: SourceHead
  readonly body: Uint8Array
}

/** Largest answer accepted (a block page of 10,000 transactions with large write sets stays well below). */
const MAX_ANSWER_BYTES = 256 * 1024 * 1024

const errorCodeOf = (body: Uint8Array): { code: string | undefined; message: string | undefined } => {
  try {
    const parsed = JSON.parse(Buffer.from(body).toString("utf8")) as { error_code?: unknown; message?: unknown }
    return {
      code: typeof parsed.error_code === "string" ? parsed.error_code : undefined,
      message: typeof parsed.message === "string" ? parsed.message.slice(0, 500) : undefined
    }
  } catch {
    return { code: undefined, message: undefined }
  }
}

export const makeFeedClient = (options: FeedClientOptions): FeedClient => {
  const url = options.url.replace(/\/+$/, "")
  const timeoutMs = options.timeoutMs ?? 10_000
  const pageSize = options.pageSize ?? 100

  const secure = url.startsWith("https:")
  const agent = secure
    ? new https.Agent({ keepAlive: true, maxSockets: 16 })
    : new http.Agent({ keepAlive: true, maxSockets: 16 })

  /** One GET, the whole body collected (at most MAX_ANSWER_BYTES), failing on `signal` or after `ms`. */
  const request = (target: string, headers: Record<string, string>, ms: number, signal: AbortSignal) =>
    new Promise<Answer>((resolve, reject) => {
      const req = (secure ? https : http).get(target, { agent, headers, signal }, (res) => {
        const length = Number(res.headers["content-length"] ?? "0")
        if (length > MAX_ANSWER_BYTES) {
          res.destroy()
          reject(new Error(`the answer is ${length} bytes, more than ${MAX_ANSWER_BYTES}`))
          return
        }
        const chunks: Buffer[] = []
        let size = 0
        res.on("data", (c: Buffer) => {
          size += c.length
          if (size > MAX_ANSWER_BYTES) {
            res.destroy(new Error(`the answer is more than ${MAX_ANSWER_BYTES} bytes`))
            return
          }
          chunks.push(c)
        })
        res.on("error", reject)
        res.on("end", () => {
          clearTimeout(timer)
          const all = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)
          resolve({
            status: res.statusCode ?? 0,
            head: sourceHeadOf(res.headers),
            body: new Uint8Array(all.buffer, all.byteOffset, all.byteLength)
          })
        })
      })
      // Until the whole answer is in (a long poll's wait included).
      const timer = setTimeout(() => req.destroy(new Error(`no answer within ${ms} ms`)), ms)
      req.on("close", () => clearTimeout(timer))
      req.on("error", (e) => {
        clearTimeout(timer)
        reject(e)
      })
    })

  const get = (path: string, extra: Record<string, string> = {}, waitMs = 0): Effect.Effect<Answer, FollowError> =>
    Effect.tryPromise({
      try: (signal) => request(`${url}${path}`, { accept: BCS, ...extra }, timeoutMs + waitMs, signal),
      catch: (e) =>
        new SourceUnavailable({
          message: `${url}${path}: ${e instanceof Error ? `${e.message}${e.cause instanceof Error ? ` (${e.cause.message})` : ""}` : String(e)}`
        })
    })

  /** Anything but 200 and "not there yet", as the error it is. */
  const failure = (path: string, a: Answer): FollowError => {
    const { code, message } = errorCodeOf(a.body)
    const what = `${url}${path} answered ${a.status}${code === undefined ? "" : ` ${code}`}${message === undefined ? "" : `: ${message}`}`
    if (a.status === 429 || a.status >= 500) return new SourceUnavailable({ message: what })
    if (a.status === 410)
      return new SourceInvalid({
        message: `${what} (the source has pruned history this follower needs: follow a source that holds it, from its genesis)`
      })
    return new SourceInvalid({ message: what })
  }

  const notYet = (a: Answer) => {
    if (a.status !== 404) return false
    const { code } = errorCodeOf(a.body)
    return code === "version_not_found" || code === "block_not_found" || code === "transaction_not_found"
  }

  const decoded = <A>(
    path: string,
    r: Result.Result<A, { readonly message: string }>
  ): Effect.Effect<A, SourceInvalid> =>
    Result.isSuccess(r)
      ? Effect.succeed(r.success)
      : Effect.fail(
          new SourceInvalid({ message: `${url}${path}: the BCS answer does not decode: ${r.failure.message}` })
        )

  /** The transactions of `block` from `from` on, one page at a time. */
  const rest = (block: SourceBlock, have: ReadonlyArray<SourceTransaction>): Effect.Effect<SourceBlock, FollowError> =>
    Effect.gen(function* () {
      const all = have.slice()
      const count = block.lastVersion - block.firstVersion + 1n
      while (BigInt(all.length) < count) {
        const start = block.firstVersion + BigInt(all.length)
        const left = count - BigInt(all.length)
        const limit = left < BigInt(pageSize) ? Number(left) : pageSize
        const path = `/transactions?start=${start}&limit=${limit}`
        const a = yield* get(path)
        if (a.status !== 200) return yield* failure(path, a)
        const page = yield* decoded(path, decodeSourceTransactions(a.body))
        if (page.length === 0)
          return yield* new SourceInvalid({
            message: `${url}${path}: no transactions, though block ${block.height} ends at ${block.lastVersion}`
          })
        for (const t of page) if (BigInt(all.length) < count) all.push(t)
      }
      return { ...block, transactions: all }
    })

  /** A block answer: "not yet", a failure, or the block (completed from `/transactions`) once `holds` it. */
  const blockAnswer = (
    path: string,
    a: Answer,
    holds: (block: SourceBlock) => string | undefined
  ): Effect.Effect<BlockAnswer, FollowError> => {
    if (notYet(a)) return Effect.succeed({ _tag: "Ahead", head: a.head })
    if (a.status !== 200) return Effect.fail(failure(path, a))
    return Effect.flatMap(decoded(path, decodeSourceBlock(a.body)), (block) => {
      const wrong = block.lastVersion < block.firstVersion ? "an empty range" : holds(block)
      return wrong !== undefined
        ? Effect.fail(
            new SourceInvalid({
              message: `${url}${path}: block ${block.height} spans ${block.firstVersion}..${block.lastVersion}: ${wrong}`
            })
          )
        : Effect.map(rest(block, block.transactions ?? []), (complete) => ({
            _tag: "Block",
            block: complete,
            head: a.head,
            receivedAtMs: Date.now()
          }))
    })
  }

  const blockAt = (version: bigint, waitMs: number): Effect.Effect<BlockAnswer, FollowError> => {
    const path = `/blocks/by_version/${version}?with_transactions=true`
    const wait: Record<string, string> =
      waitMs > 0 ? { "x-movenode-min-ledger-version": String(version), "x-movenode-wait-ms": String(waitMs) } : {}
    return Effect.flatMap(get(path, wait, waitMs), (a) =>
      blockAnswer(path, a, (b) =>
        b.firstVersion > version || b.lastVersion < version ? `it does not hold version ${version}` : undefined
      )
    )
  }

  const blockAtHeight = (height: bigint): Effect.Effect<BlockAnswer, FollowError> => {
    const path = `/blocks/by_height/${height}?with_transactions=true`
    return Effect.flatMap(get(path), (a) =>
      blockAnswer(path, a, (b) => (b.height !== height ? `it is not block ${height}` : undefined))
    )
  }

  const transactionAt = (version: bigint): Effect.Effect<SourceTransaction | undefined, FollowError> => {
    const path = `/transactions/by_version/${version}`
    return Effect.flatMap(get(path), (a) => {
      if (notYet(a)) return Effect.succeed(undefined)
      if (a.status !== 200) return Effect.fail(failure(path, a))
      return Effect.map(decoded(path, decodeSourceTransactionData(a.body)), (t) =>
        t.version === version ? t : undefined
      )
    })
  }

  const head = Effect.flatMap(get("", { accept: "application/json" }), (a) =>
    a.status === 200 ? Effect.succeed(a.head) : Effect.fail(failure("", a))
  )

  return { url, blockAt, blockAtHeight, transactionAt, head }
}
