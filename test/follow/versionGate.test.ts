import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { LocalChain } from "../../src/LocalChain.js"

const get = (url: string, headers: Record<string, string> = {}) =>
  Effect.promise(async () => {
    const r = await fetch(url, { headers })
    const text = await r.text()
    return { status: r.status, headers: r.headers, body: text === "" ? undefined : (JSON.parse(text) as any) }
  })

describe("reads that name a ledger version this node may not hold yet", () => {
  it.live(
    "X-Movenode-Min-Ledger-Version answers 404 version_not_found at once; with X-Movenode-Wait-Ms it waits for the block; bad headers are 400",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const chain = yield* LocalChain.spawn({ accounts: 1, mining: MiningMode.manual })
          const { body: info } = yield* get(chain.apiUrl)
          const next = BigInt(info.ledger_version) + 1n
          const path = `${chain.apiUrl}/accounts/0x1/resource/0x1::chain_id::ChainId`
          // Behind the asked version, no wait: the reference's retryable answer, with ledger headers.
          const behind = yield* get(path, { "x-movenode-min-ledger-version": String(next) })
          assert.strictEqual(behind.status, 404)
          assert.strictEqual(behind.body.error_code, "version_not_found")
          assert.strictEqual(behind.headers.get("x-aptos-ledger-version"), info.ledger_version)
          // The same with a wait: a block made meanwhile lets it answer.
          const waiting = Effect.runPromise(
            get(path, { "x-movenode-min-ledger-version": String(next), "x-movenode-wait-ms": "3000" })
          )
          yield* Effect.sleep(100)
          yield* chain.mine
          const answered = yield* Effect.promise(() => waiting)
          assert.strictEqual(answered.status, 200)
          assert.isTrue(BigInt(answered.headers.get("x-aptos-ledger-version")!) >= next)
          // A `ledger_version` query beyond the head waits too when asked to, then the handler answers.
          const head = BigInt((yield* get(chain.apiUrl)).body.ledger_version)
          const pinned = yield* get(`${path}?ledger_version=${head + 1000n}`, { "x-movenode-wait-ms": "50" })
          assert.strictEqual(pinned.status, 404)
          assert.strictEqual(pinned.body.error_code, "version_not_found")
          // Malformed headers.
          const bad = yield* get(path, { "x-movenode-min-ledger-version": "-1" })
          assert.strictEqual(bad.status, 400)
          assert.strictEqual(bad.body.error_code, "web_framework_error")
          const badWait = yield* get(path, { "x-movenode-wait-ms": "soon" })
          assert.strictEqual(badWait.status, 400)
        })
      ),
    60_000
  )

  it.live("/-/healthy?duration_secs=N answers 503 health_check_failed when the latest block is older than N s", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const chain = yield* LocalChain.spawn({ accounts: 1, mining: MiningMode.manual })
        yield* chain.mine
        const fresh = yield* get(`${chain.apiUrl}/-/healthy?duration_secs=30`)
        assert.strictEqual(fresh.status, 200)
        yield* Effect.sleep(1100)
        const stale = yield* get(`${chain.apiUrl}/-/healthy?duration_secs=1`)
        assert.strictEqual(stale.status, 503)
        assert.strictEqual(stale.body.error_code, "health_check_failed")
        assert.match(stale.body.message, /beyond the allowed skew \(1s\)/)
        assert.isNotNull(stale.headers.get("x-aptos-ledger-version"))
        // Without the parameter: healthy while the node answers, as the reference.
        assert.strictEqual((yield* get(`${chain.apiUrl}/-/healthy`)).status, 200)
        const bad = yield* get(`${chain.apiUrl}/-/healthy?duration_secs=x`)
        assert.strictEqual(bad.status, 400)
      })
    )
  )
})
