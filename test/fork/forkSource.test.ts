/**
 * The fork's source client and state source against a scripted HTTP server: retries with backoff
 * on 429 and 5xx, one request in flight per key however many readers want it, a clear error naming
 * the key when the source cannot answer (errors, garbage, silence: bounded by the timeout, never a
 * hang), and only the source's own 404 `state_value_not_found` taken as "absent".
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { Effect, Exit } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Bcs } from "../../src/bcs/index.js"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { stateKeyCodec } from "../../src/domain/StateKeyCodec.js"
import { stateValueCodec } from "../../src/domain/StateValueCodec.js"
import { makeForkSourceClient } from "../../src/fork/ForkSourceClient.js"
import { makeForkStateSource } from "../../src/fork/ForkStateSource.js"
import { memoryRemoteStateCache } from "../../src/fork/RemoteStateCache.js"
import { CurrentMissLog, MissLog, RemoteStateMissing, retryOnMiss } from "../../src/fork/StateMisses.js"
import { LocalChain } from "../../src/LocalChain.js"

/** What the scripted source does with the n-th raw request for a key (hex): a status and a body. */
type Script = (key: string, n: number) => { status: number; body: string | Uint8Array } | "silence"
let script: Script = () => ({ status: 500, body: "" })
const seen = new Map<string, number>()
let origin = ""
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  let body = ""
  req.on("data", (d) => (body += d))
  req.on("end", () => {
    const key = req.url?.startsWith("/v1/experimental/state_values/raw")
      ? (JSON.parse(body) as { key: string }).key
      : req.url!
    const n = (seen.get(key) ?? 0) + 1
    seen.set(key, n)
    const answer = script(key, n)
    if (answer === "silence") return
    res.writeHead(answer.status, {
      "content-type": typeof answer.body === "string" ? "application/json" : "application/x-bcs"
    })
    res.end(answer.body)
  })
})
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

const keyOf = (n: number) =>
  Bcs.encode(stateKeyCodec, { _tag: "TableItem", handle: addressFromNumber(0xabc), key: Uint8Array.of(n) })
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex")
const notFound = {
  status: 404,
  body: JSON.stringify({ message: "x", error_code: "state_value_not_found", vm_error_code: null })
}
const value = (bytes: number[]) => ({
  status: 200,
  body: Bcs.encode(stateValueCodec, { data: Uint8Array.from(bytes), metadata: undefined })
})

const sourceWith = (s: Script, options: { attempts?: number; timeoutMs?: number } = {}) => {
  script = s
  seen.clear()
  const client = makeForkSourceClient({
    url: origin,
    attempts: options.attempts ?? 4,
    timeoutMs: options.timeoutMs ?? 2000,
    backoffMs: 10
  })
  return makeForkStateSource(client, memoryRemoteStateCache(), 7n)
}

describe("the fork's source", () => {
  it("retries 429 and 5xx with backoff, then takes the answer", async () => {
    const state = sourceWith((_, n) =>
      n === 1 ? { status: 429, body: "slow down" } : n === 2 ? { status: 503, body: "" } : value([1, 2])
    )
    await Effect.runPromise(state.fetch([keyOf(1)]))
    expect(seen.get(hex(keyOf(1)))).toBe(3)
    expect([...state.read(keyOf(1))!.data]).toEqual([1, 2])
  })

  it("caches 404 state_value_not_found as absent, and asks no more", async () => {
    const state = sourceWith(() => notFound)
    await Effect.runPromise(state.fetch([keyOf(2)]))
    await Effect.runPromise(state.fetch([keyOf(2)]))
    expect(state.read(keyOf(2))).toBeUndefined()
    expect(seen.get(hex(keyOf(2)))).toBe(1)
  })

  it("sends one request per key however many want it at once", async () => {
    const state = sourceWith(() => value([9]))
    await Effect.runPromise(
      Effect.all(
        Array.from({ length: 20 }, () => state.fetch([keyOf(3), keyOf(4)])),
        { concurrency: "unbounded" }
      )
    )
    expect(seen.get(hex(keyOf(3)))).toBe(1)
    expect(seen.get(hex(keyOf(4)))).toBe(1)
  })

  it("names the key when the source cannot answer: errors, another 404, garbage, silence", async () => {
    for (const [what, s] of [
      ["500s", () => ({ status: 500, body: "boom" })],
      [
        "a 404 that is not state_value_not_found",
        () => ({ status: 404, body: JSON.stringify({ error_code: "version_not_found" }) })
      ],
      ["bytes that are not a StateValue", () => ({ status: 200, body: Uint8Array.of(9, 9, 9) })],
      ["silence", () => "silence" as const]
    ] as const) {
      const state = sourceWith(s as Script, { attempts: 2, timeoutMs: 300 })
      const started = Date.now()
      const exit = await Effect.runPromiseExit(state.fetch([keyOf(5)]))
      expect(Exit.isFailure(exit), what).toBe(true)
      expect(String(Exit.isFailure(exit) ? exit.cause : ""), what).toMatch(
        /item 0x05 of table 0xabc \(state key 0x[0-9a-f]+\) at version 7/
      )
      expect(Date.now() - started, what).toBeLessThan(5000)
      // Never a wrong "absent": the key is still unknown, a read of it is still a miss.
      expect(() => state.read(keyOf(5)), what).toThrow(RemoteStateMissing)
    }
  })

  it("a read of a key not fetched is a miss of the running unit of work, fetched before it runs again", async () => {
    const state = sourceWith(() => value([4, 2]))
    let runs = 0
    const work = Effect.sync(() => {
      runs++
      return state.read(keyOf(6))?.data
    })
    const result = await Effect.runPromise(retryOnMiss((e) => e)(work))
    expect(runs).toBe(2)
    expect([...(result ?? [])]).toEqual([4, 2])
    // Outside retryOnMiss the read throws and the key is fetched in the background.
    const log = new MissLog()
    await Effect.runPromiseExit(
      Effect.provideService(
        Effect.sync(() => state.read(keyOf(7))),
        CurrentMissLog,
        log
      )
    )
    expect([...log.keys.values()].map((m) => hex(m.keyBytes))).toEqual([hex(keyOf(7))])
  })

  it("a fork whose source does not answer fails to start with a message naming it, quickly", async () => {
    const started = Date.now()
    const exit = await Effect.runPromiseExit(
      Effect.scoped(LocalChain.spawn({ accounts: 0, fork: { url: "http://127.0.0.1:1", attempts: 2, timeoutMs: 500 } }))
    )
    expect(Exit.isFailure(exit)).toBe(true)
    expect(String(Exit.isFailure(exit) ? exit.cause : "")).toMatch(
      /the fork source http:\/\/127\.0\.0\.1:1\/v1 could not answer GET/
    )
    expect(Date.now() - started).toBeLessThan(10_000)
  })
})
