/** CORS on the API server, as the reference node answers browsers (src/http/Cors.ts). */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startServer } from "./serverHarness.js"
import { makeTestNode } from "./TestNode.js"

const ORIGIN = "https://wallet.example"

describe("CORS (default: any origin)", () => {
  let server: Awaited<ReturnType<typeof startServer>>
  beforeAll(async () => {
    server = await startServer(makeTestNode())
  })
  afterAll(() => server.close())

  it("answers a preflight from another origin with the methods and the headers asked for", async () => {
    const r = await fetch(`${server.url}/v1/view`, {
      method: "OPTIONS",
      headers: {
        origin: ORIGIN,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, x-aptos-client"
      }
    })
    expect(r.status).toBe(200)
    expect(r.headers.get("access-control-allow-origin")).toBe(ORIGIN)
    expect(r.headers.get("access-control-allow-methods")).toBe("GET, POST")
    expect(r.headers.get("access-control-allow-headers")).toBe("content-type, x-aptos-client")
    expect(r.headers.get("access-control-allow-credentials")).toBe("true")
    expect(r.headers.get("access-control-max-age")).toBe("86400")
    expect(await r.text()).toBe("")
  })

  it("allows the origin on every response, errors included, and exposes the ledger headers", async () => {
    const get = (path: string, init: RequestInit = {}) =>
      fetch(`${server.url}${path}`, { ...init, headers: { origin: ORIGIN, ...(init.headers ?? {}) } })
    const responses = [
      await get("/v1"),
      await get("/v1/accounts/0x1/balance/0xa"),
      await get("/v1/accounts/0xnothex/balance/0xa"), // 400
      await get("/v1/nowhere"), // 404
      await get("/v1/view"), // 405
      await get("/v1/view", { method: "POST", body: "{", headers: { "content-type": "application/json" } }) // 400
    ]
    expect(responses.map((r) => r.status)).toEqual([200, 200, 400, 404, 405, 400])
    for (const r of responses) {
      expect(r.headers.get("access-control-allow-origin")).toBe(ORIGIN)
      expect(r.headers.get("vary")).toBe("origin")
      await r.arrayBuffer()
    }
    expect(responses[0]!.headers.get("access-control-expose-headers")).toContain("X-SERVICE-LEDGER-VERSION")
    expect(responses[0]!.headers.get("access-control-expose-headers")).toContain("X-SERVICE-CURSOR")
  })

  it("a request without Origin (curl, an SDK in Node.js) gets `*`", async () => {
    const r = await fetch(`${server.url}/v1/-/healthy`)
    expect(r.headers.get("access-control-allow-origin")).toBe("*")
    expect(r.headers.get("access-control-allow-credentials")).toBeNull()
  })

  it("a plain OPTIONS (not a preflight) is still 405", async () => {
    const r = await fetch(`${server.url}/v1/view`, { method: "OPTIONS" })
    expect(r.status).toBe(405)
  })
})

describe("CORS configured", () => {
  it("a list of origins: those are allowed, others get no CORS headers", async () => {
    const server = await startServer(makeTestNode(), { cors: [ORIGIN] })
    try {
      const ok = await fetch(`${server.url}/v1`, { headers: { origin: ORIGIN } })
      expect(ok.headers.get("access-control-allow-origin")).toBe(ORIGIN)
      const other = await fetch(`${server.url}/v1`, { headers: { origin: "https://evil.example" } })
      expect(other.status).toBe(200)
      expect(other.headers.get("access-control-allow-origin")).toBeNull()
      const pre = await fetch(`${server.url}/v1/view`, {
        method: "OPTIONS",
        headers: { origin: "https://evil.example", "access-control-request-method": "POST" }
      })
      expect(pre.headers.get("access-control-allow-origin")).toBeNull()
      expect(pre.headers.get("access-control-allow-methods")).toBeNull()
    } finally {
      await server.close()
    }
  })

  it("off: no CORS headers and OPTIONS is 405", async () => {
    const server = await startServer(makeTestNode(), { cors: false })
    try {
      const r = await fetch(`${server.url}/v1`, { headers: { origin: ORIGIN } })
      expect(r.headers.get("access-control-allow-origin")).toBeNull()
      const pre = await fetch(`${server.url}/v1/view`, {
        method: "OPTIONS",
        headers: { origin: ORIGIN, "access-control-request-method": "POST" }
      })
      expect(pre.status).toBe(405)
    } finally {
      await server.close()
    }
  })
})
