import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parseListenAddress } from "../../src/http/HttpConfig.js"
import { startServer } from "./serverHarness.js"
import { makeTestNode } from "./TestNode.js"

/** The JSON body of a response, untyped (tests inspect it field by field). */
const j = (r: Response): Promise<any> => r.json()

describe("configuration", () => {
  const lines: Array<string> = []
  let server: Awaited<ReturnType<typeof startServer>>
  beforeAll(async () => {
    server = await startServer(makeTestNode(), {
      headerPrefix: "X-APTOS-",
      gitHash: "abc123",
      log: (l) => lines.push(l),
      metricsListen: { host: "127.0.0.1", port: 0 }
    })
  })
  afterAll(() => server.close())

  it("uses the configured header prefix, including GAS-USED", async () => {
    const r = await fetch(server.url + "/v1")
    expect(r.headers.get("x-aptos-ledger-version")).toBe("1000")
    expect(r.headers.get("x-service-ledger-version")).toBeNull()
    expect((await j(r)).git_hash).toBe("abc123")
    const v = await fetch(server.url + "/v1/view", {
      method: "POST",
      body: JSON.stringify({ function: "0x1::a::b", type_arguments: [], arguments: [] }),
      headers: { "content-type": "application/json" }
    })
    expect(v.headers.get("x-aptos-gas-used")).toBe("7")
  })
  it("logs method, path, status and duration per request", async () => {
    lines.length = 0
    await fetch(server.url + "/v1/nope")
    expect(lines.some((l) => /^GET \/v1\/nope 404 \d+\.\d+ms$/.test(l))).toBe(true)
  })
  it("serves Prometheus counts and latency histograms on the metrics port", async () => {
    await fetch(server.url + "/v1/estimate_gas_price")
    await fetch(server.url + "/v1/estimate_gas_price")
    const m = await (await fetch(`http://127.0.0.1:${server.info.metricsAddress!.port}/metrics`)).text()
    const count = /movenode_http_requests_total\{route="transactions.estimateGasPrice",status="200"\} (\d+)/.exec(m)
    expect(Number(count?.[1])).toBeGreaterThanOrEqual(2)
    expect(m).toContain(
      `movenode_http_request_duration_seconds_bucket{route="transactions.estimateGasPrice",status="200",le="+Inf"}`
    )
    expect(m).toContain(`movenode_http_requests_total{route="unmatched",status="404"}`)
    // The API port does not serve metrics.
    expect((await fetch(server.url + "/metrics")).status).toBe(404)
  })
})

describe("quiet by default", () => {
  it("writes nothing when no logger is configured", async () => {
    const writes: Array<unknown> = []
    const original = process.stderr.write.bind(process.stderr)
    const originalOut = process.stdout.write.bind(process.stdout)
    const capture = ((c: unknown) => {
      writes.push(c)
      return true
    }) as typeof process.stderr.write
    process.stderr.write = capture
    process.stdout.write = capture
    try {
      const server = await startServer(makeTestNode())
      await fetch(server.url + "/v1/nope")
      await server.close()
    } finally {
      process.stderr.write = original
      process.stdout.write = originalOut
    }
    expect(writes).toEqual([])
  })
})

describe("graceful shutdown", () => {
  it("finishes an in-flight request, then refuses new connections", async () => {
    let release: () => void = () => {}
    let entered: () => void = () => {}
    const gate = new Promise<void>((r) => (release = r))
    const arrived = new Promise<void>((r) => (entered = r))
    const slow = Effect.sync(() => entered()).pipe(
      Effect.flatMap(() => Effect.promise(() => gate)),
      Effect.flatMap(() => makeTestNode().estimateGasPrice)
    )
    const server = await startServer({ ...makeTestNode(), estimateGasPrice: slow })
    const inflight = fetch(server.url + "/v1/estimate_gas_price")
    await arrived
    const closing = server.close()
    await new Promise((r) => setTimeout(r, 20))
    release()
    const r = await inflight
    expect(r.status).toBe(200)
    await closing
    await expect(fetch(server.url + "/v1")).rejects.toThrow()
  })
})

describe("parseListenAddress", () => {
  it("parses host:port forms", () => {
    expect(parseListenAddress("127.0.0.1:8080")).toEqual({ host: "127.0.0.1", port: 8080 })
    expect(parseListenAddress("[::1]:80")).toEqual({ host: "::1", port: 80 })
    expect(parseListenAddress(":9")).toEqual({ host: "0.0.0.0", port: 9 })
    expect(parseListenAddress("localhost")).toBeUndefined()
    expect(parseListenAddress("a:70000")).toBeUndefined()
  })
})
