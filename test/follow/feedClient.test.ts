import http from "node:http"
import type { AddressInfo } from "node:net"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { makeFeedClient } from "../../src/follow/FeedClient.js"

/**
 * The feed client's classification of a source's answers (node:http with a keep-alive agent):
 * "not yet", retryable failures, invalid answers, the ledger headers, the per-request time limit.
 */
const serve = (handler: http.RequestListener) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<{ url: string; server: http.Server }>((resolve) => {
          const server = http.createServer(handler)
          server.listen(0, "127.0.0.1", () =>
            resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server })
          )
        })
    ),
    ({ server }) =>
      Effect.promise(
        () =>
          new Promise<void>((resolve) => {
            server.closeAllConnections()
            server.close(() => resolve())
          })
      )
  )

const aptosError = (res: http.ServerResponse, status: number, code: string, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers })
  res.end(JSON.stringify({ message: `${code} here`, error_code: code, vm_error_code: null }))
}

describe("follow: the feed client", () => {
  it.live("404 version_not_found is 'not yet' with the source's head; the wait headers go with a long poll", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const seen: Array<http.IncomingHttpHeaders> = []
        const { url } = yield* serve((req, res) => {
          seen.push(req.headers)
          aptosError(res, 404, "version_not_found", {
            "x-aptos-ledger-version": "41",
            "x-aptos-block-height": "7",
            "x-aptos-chain-id": "4",
            "x-aptos-ledger-timestampusec": "123"
          })
        })
        const feed = makeFeedClient({ url })
        const a = yield* feed.blockAt(42n, 250)
        assert.strictEqual(a._tag, "Ahead")
        assert.strictEqual(a.head.ledgerVersion, 41n)
        assert.strictEqual(a.head.blockHeight, 7n)
        assert.strictEqual(a.head.chainId, 4)
        assert.strictEqual(seen[0]!["x-movenode-min-ledger-version"], "42")
        assert.strictEqual(seen[0]!["x-movenode-wait-ms"], "250")
        assert.strictEqual(seen[0]!.accept, "application/x-bcs")
        const b = yield* feed.blockAtHeight(8n)
        assert.strictEqual(b._tag, "Ahead")
        // A transaction the source has not reached: undefined.
        assert.strictEqual(yield* feed.transactionAt(99n), undefined)
      })
    )
  )

  it.live(
    "5xx and 429 are SourceUnavailable (retried); 410 and other answers are SourceInvalid; garbage does not decode",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const { url } = yield* serve((req, res) => {
            if (req.url!.includes("/by_height/1")) return aptosError(res, 503, "internal_error")
            if (req.url!.includes("/by_height/2")) return aptosError(res, 429, "too_many_requests")
            if (req.url!.includes("/by_height/3")) return aptosError(res, 410, "version_pruned")
            if (req.url!.includes("/by_height/4")) return aptosError(res, 400, "invalid_input")
            res.writeHead(200, { "content-type": "application/x-bcs" })
            res.end(Buffer.from([1, 2, 3]))
          })
          const feed = makeFeedClient({ url })
          const tags = []
          for (const h of [1n, 2n, 3n, 4n, 5n]) tags.push((yield* Effect.flip(feed.blockAtHeight(h)))._tag)
          assert.deepStrictEqual(tags, [
            "SourceUnavailable",
            "SourceUnavailable",
            "SourceInvalid",
            "SourceInvalid",
            "SourceInvalid"
          ])
          const pruned = yield* Effect.flip(feed.blockAtHeight(3n))
          assert.match(pruned.message, /pruned history/)
          const garbage = yield* Effect.flip(feed.blockAtHeight(5n))
          assert.match(garbage.message, /does not decode/)
        })
      )
  )

  it.live("a source that does not answer within the time limit, or cannot be reached, is SourceUnavailable", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { url } = yield* serve(() => {
          // Never answers.
        })
        const slow = yield* Effect.flip(makeFeedClient({ url, timeoutMs: 200 }).blockAtHeight(1n))
        assert.strictEqual(slow._tag, "SourceUnavailable")
        assert.match(slow.message, /no answer within 200 ms/)
        const gone = yield* Effect.flip(makeFeedClient({ url: "http://127.0.0.1:1/v1", timeoutMs: 2000 }).head)
        assert.strictEqual(gone._tag, "SourceUnavailable")
      })
    )
  )
})
