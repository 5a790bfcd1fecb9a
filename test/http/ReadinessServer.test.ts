import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { makeReadinessListener, urlOf } from "../../src/http/ReadinessServer.js"
import { reply, serveScoped } from "../../src/http/sideServer.js"

describe("ReadinessServer", () => {
  it.effect("answers 200 with the reference's JSON when every service answers, 503 naming those that do not", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const api = yield* serveScoped(
          (req, res) => reply(res, req.url === "/v1" ? 200 : 404, "application/json", "{}"),
          {
            host: "127.0.0.1",
            port: 0
          }
        )
        const faucet = yield* serveScoped((_req, res) => reply(res, 200, "text/plain", "tap:ok"), {
          host: "127.0.0.1",
          port: 0
        })
        const checks = [
          { _tag: "NodeApi", url: urlOf(api) },
          { _tag: "Http", url: urlOf(faucet), name: "Faucet" }
        ] as const
        const ready = yield* serveScoped(makeReadinessListener(checks), { host: "127.0.0.1", port: 0 })
        const get = () => fetch(urlOf(ready)).then(async (r) => [r.status, await r.json()] as const)
        const [status, body] = yield* Effect.promise(get)
        assert.strictEqual(status, 200)
        assert.deepStrictEqual(body, {
          ready: [{ NodeApi: urlOf(api) }, { Http: [urlOf(faucet), "Faucet"] }],
          not_ready: []
        })
        const down = yield* serveScoped(
          makeReadinessListener([...checks, { _tag: "Http", url: "http://127.0.0.1:1/", name: "Gone" }]),
          {
            host: "127.0.0.1",
            port: 0
          }
        )
        const [s2, b2] = yield* Effect.promise(() =>
          fetch(urlOf(down)).then(async (r) => [r.status, await r.json()] as const)
        )
        assert.strictEqual(s2, 503)
        assert.deepStrictEqual((b2 as { not_ready: unknown }).not_ready, [{ Http: ["http://127.0.0.1:1/", "Gone"] }])
      })
    )
  )
})
