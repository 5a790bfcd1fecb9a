/**
 * Issue 11 items 3 and 5: refused sockets are destroyed once their response is flushed (not merely
 * half-closed, which let 2,000 silent clients hold 2,029 file descriptors), a configurable
 * connection limit, a JSON error body and a metrics count for every refusal (417 bogus Expect and
 * 400 HTTP/1.1 without Host used to be empty), and `Connection: close` during graceful shutdown.
 */
import { createServer } from "node:http"
import { connect, type Socket } from "node:net"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { makeHttpConfig } from "../../src/http/HttpConfig.js"
import { makeHttpMetrics } from "../../src/http/Metrics.js"
import { connectionLimit } from "../../src/http/MovenodeServer.js"
import { makeRequestListener } from "../../src/http/RequestListener.js"
import { startServer } from "./serverHarness.js"
import { makeTestNode } from "./TestNode.js"

const opened: Socket[] = []
afterEach(() => {
  for (const s of opened.splice(0)) s.destroy()
})

/**
 * A raw client that never closes its side (`allowHalfOpen`): only the server destroying its
 * socket frees the server's descriptor. Resolves with everything received once the server ends.
 */
const rawClient = (port: number, send: string | undefined) =>
  new Promise<string>((resolve, reject) => {
    const s = connect({ port, host: "127.0.0.1", allowHalfOpen: true })
    opened.push(s)
    let got = ""
    s.on("data", (d) => {
      got += d.toString("latin1")
    })
    s.on("end", () => resolve(got))
    s.on("error", reject)
    if (send !== undefined) s.write(send)
  })

const until = async (f: () => Promise<boolean>, ms: number) => {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await f()) return true
    await new Promise((r) => setTimeout(r, 25))
  }
  return f()
}

const bodyOf = (response: string) => JSON.parse(response.slice(response.indexOf("\r\n\r\n") + 4))

describe("refused sockets", () => {
  it("silent clients get a 408 JSON body and their sockets are destroyed, not left half-open", async () => {
    const server = await startServer(makeTestNode(), { requestTimeoutMs: 300 })
    try {
      const responses = await Promise.all(
        Array.from({ length: 40 }, () => rawClient(server.info.address.port, undefined))
      )
      for (const r of responses) {
        expect(r.startsWith("HTTP/1.1 408 Request Timeout\r\n")).toBe(true)
        expect(bodyOf(r)).toEqual({
          message: "Malformed HTTP request (ERR_HTTP_REQUEST_TIMEOUT)",
          error_code: "web_framework_error",
          vm_error_code: null
        })
      }
      // The clients still hold their ends open: the server's count drops only if it destroyed its sockets.
      expect(await until(async () => (await server.info.connections()) === 0, 3000)).toBe(true)
    } finally {
      await server.close()
    }
  })

  it("a malformed request gets a 400 JSON body and its socket is destroyed", async () => {
    const server = await startServer(makeTestNode())
    try {
      const r = await rawClient(server.info.address.port, "GARBAGE\r\n\r\n")
      expect(r.startsWith("HTTP/1.1 400 Bad Request\r\n")).toBe(true)
      expect(bodyOf(r).error_code).toBe("web_framework_error")
      expect(await until(async () => (await server.info.connections()) === 0, 3000)).toBe(true)
    } finally {
      await server.close()
    }
  })

  it("a bogus Expect is 417 and an HTTP/1.1 request without Host is 400, both with the JSON body, counted", async () => {
    const metricsServer = await startServer(makeTestNode(), { metricsListen: { host: "127.0.0.1", port: 0 } })
    try {
      const port = metricsServer.info.address.port
      const expect417 = await rawClient(
        port,
        "POST /v1/view HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\nContent-Length: 2\r\n\r\n"
      )
      expect(expect417.startsWith("HTTP/1.1 417 ")).toBe(true)
      expect(bodyOf(expect417)).toEqual({
        message: 'Expectation Failed: unsupported Expect header "bogus"',
        error_code: "web_framework_error",
        vm_error_code: null
      })
      const noHost = await rawClient(port, "GET /v1 HTTP/1.1\r\n\r\n")
      expect(noHost.startsWith("HTTP/1.1 400 ")).toBe(true)
      expect(bodyOf(noHost).message).toBe("Bad Request: an HTTP/1.1 request without a Host header")
      // HTTP/1.0 needs no Host.
      const old = await rawClient(port, "GET /v1/-/healthy HTTP/1.0\r\n\r\n")
      expect(old.startsWith("HTTP/1.1 200 ")).toBe(true)
      await rawClient(port, "GARBAGE\r\n\r\n")
      const metrics = await (await fetch(`http://127.0.0.1:${metricsServer.info.metricsAddress!.port}/metrics`)).text()
      expect(metrics).toContain('movenode_http_requests_total{route="refused",status="417"} 1')
      expect(metrics).toContain('movenode_http_requests_total{route="refused",status="400"} 2')
    } finally {
      await metricsServer.close()
    }
  })

  it("connections past maxConnections are answered 503 with the JSON body and closed", async () => {
    const server = await startServer(makeTestNode(), { maxConnections: 3 })
    try {
      const port = server.info.address.port
      const held = Array.from({ length: 3 }, () => connect({ port, host: "127.0.0.1" }))
      opened.push(...held)
      await until(async () => (await server.info.connections()) === 3, 2000)
      const refused = await rawClient(port, undefined)
      expect(refused.startsWith("HTTP/1.1 503 Service Unavailable\r\n")).toBe(true)
      expect(bodyOf(refused).message).toBe("Service Unavailable: the node holds its maximum of 3 connections")
      for (const s of held) s.destroy()
      expect(await until(async () => (await server.info.connections()) === 0, 3000)).toBe(true)
      expect((await fetch(`${server.url}/v1/-/healthy`)).status).toBe(200)
    } finally {
      await server.close()
    }
  })
})

describe("connectionLimit", () => {
  it("stays below the process's open-files limit", () => {
    expect(connectionLimit(4096, undefined)).toBe(4096)
    expect(connectionLimit(4096, 20_000)).toBe(4096)
    expect(connectionLimit(4096, 1024)).toBe(768)
    expect(connectionLimit(4096, 100)).toBe(1)
  })
})

describe("graceful shutdown", () => {
  it("a response finished during the grace period carries Connection: close (the server's own close)", async () => {
    const base = makeTestNode()
    const slow = {
      ...base,
      view: (request: never, version: never) => Effect.delay(base.view(request, version), "300 millis")
    }
    const server = await startServer(slow as typeof base)
    const response = fetch(`${server.url}/v1/view`, {
      method: "POST",
      body: '{"function":"0x1::coin::balance","type_arguments":[],"arguments":["0x1"]}',
      headers: { "content-type": "application/json" }
    })
    await new Promise((r) => setTimeout(r, 100))
    const closed = server.close()
    const r = await response
    expect(r.status).toBe(200)
    expect(r.headers.get("connection")).toBe("close")
    await closed
  })

  it("responses sent while closing carry Connection: close", async () => {
    const lifecycle = { closing: false }
    const server = createServer(makeRequestListener(makeTestNode(), makeHttpConfig(), makeHttpMetrics(), lifecycle))
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r))
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1/-/healthy`
      expect((await fetch(url)).headers.get("connection")).not.toBe("close")
      lifecycle.closing = true
      expect((await fetch(url)).headers.get("connection")).toBe("close")
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })
})

describe("kept-alive connections", () => {
  it("stay open past Node's 5 s idle timeout (announced: timeout=65), so a client reusing one is not reset", async () => {
    const server = await startServer(makeTestNode())
    try {
      const s = connect({ port: server.info.address.port, host: "127.0.0.1" })
      opened.push(s)
      let got = ""
      let closed = false
      s.on("data", (d) => {
        got += d.toString("latin1")
      })
      s.on("close", () => {
        closed = true
      })
      const request = "GET /v1 HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n"
      const answers = () => got.split("HTTP/1.1 200 OK").length - 1
      s.write(request)
      expect(await until(async () => answers() === 1, 5000)).toBe(true)
      expect(got.toLowerCase()).toContain("keep-alive: timeout=65")
      // Idle longer than Node's default keepAliveTimeout (5 s), then reuse the connection.
      await new Promise((r) => setTimeout(r, 5500))
      expect(closed).toBe(false)
      s.write(request)
      expect(await until(async () => answers() === 2, 5000)).toBe(true)
    } finally {
      await server.close()
    }
  }, 20_000)
})
