/**
 * The local chain's servers come up API first: a client that polls the faucet until it answers and
 * then calls the API (`scripts/loadgen.mjs start` does, as test harnesses do) finds the API
 * listening. Built side by side, the in-process faucet could fund an account before the front
 * process had bound the API's port: the API refused connections then (2–3 restarts in 12–20 here).
 * A front process that starts 400 ms late makes that window certain.
 */
import net from "node:net"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { LocalChain } from "../../../src/LocalChain.js"

const slowFront = new URL("../../fixtures/front/slowFront.mjs", import.meta.url)

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = net.createServer()
    s.on("error", reject)
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port
      s.close(() => resolve(port))
    })
  })

/** Whether something accepts a connection on `port` now. */
const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1")
    socket.on("connect", () => {
      socket.destroy()
      resolve(true)
    })
    socket.on("error", () => resolve(false))
  })

describe("the local chain's listening order", () => {
  it.live("the faucet answers only once the API (behind a slow front process) listens", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const [api, faucet] = yield* Effect.promise(() => Promise.all([freePort(), freePort()]))
        const chain = yield* Effect.forkScoped(
          LocalChain.spawn({
            front: slowFront,
            api: { host: "127.0.0.1", port: api },
            faucet: { host: "127.0.0.1", port: faucet },
            readiness: undefined,
            graphql: undefined,
            indexer: undefined
          })
        )
        // Poll the faucet every millisecond; the moment it accepts, the API must too.
        let polls = 0
        while (!(yield* Effect.promise(() => accepts(faucet)))) {
          polls++
          assert.isBelow(polls, 30_000, "the faucet never listened")
          yield* Effect.sleep("1 millis")
        }
        assert.isTrue(yield* Effect.promise(() => accepts(api)), "the faucet listened before the API")
        const built = yield* Fiber.join(chain)
        assert.strictEqual(built.apiUrl.includes(`:${api}`), true)
      })
    )
  )
})
