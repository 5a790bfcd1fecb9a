import { request } from "node:http"
import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectGolden } from "./golden.js"
import { startServer } from "./serverHarness.js"
import { makeTestNode } from "./TestNode.js"

let server: Awaited<ReturnType<typeof startServer>>
const LIMIT = 1024
beforeAll(async () => {
  server = await startServer(makeTestNode(), { maxBodyBytes: LIMIT })
})
afterAll(() => server.close())

/** Sends raw bytes and reads until the server closes or a full response arrived. */
const raw = (text: string | Buffer, endAfterWrite = true, untilClose = false): Promise<string> =>
  new Promise((resolve, reject) => {
    const socket = connect(server.info.address.port, "127.0.0.1")
    let out = ""
    socket.on("data", (d) => {
      out += d.toString("latin1")
      const m = /content-length: (\d+)\r\n/i.exec(out)
      const end = out.indexOf("\r\n\r\n")
      if (!untilClose && m !== null && end >= 0 && out.length >= end + 4 + Number(m[1])) socket.destroy()
    })
    socket.on("close", () => resolve(out))
    socket.on("error", reject)
    socket.write(text)
    if (endAfterWrite) socket.end()
  })

const statusOf = (response: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1])
const bodyOf = (response: string) => response.slice(response.indexOf("\r\n\r\n") + 4)

/** A chunked POST of `total` bytes through node:http (no Content-Length). */
const chunked = (total: number): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: server.info.address.port,
        method: "POST",
        path: "/v1/view",
        headers: { "content-type": "application/json", "transfer-encoding": "chunked" }
      },
      (res) => {
        let body = ""
        res.on("data", (d) => (body += d))
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }))
      }
    )
    req.on("error", (e) =>
      (e as NodeJS.ErrnoException).code === "EPIPE" || (e as NodeJS.ErrnoException).code === "ECONNRESET"
        ? undefined
        : reject(e)
    )
    const piece = Buffer.alloc(256, 0x20)
    let sent = 0
    const pump = () => {
      while (sent < total) {
        const n = Math.min(piece.length, total - sent)
        sent += n
        if (!req.write(piece.subarray(0, n))) return req.once("drain", pump)
      }
      req.end()
    }
    // A small valid JSON body when under the limit, whitespace padding otherwise.
    if (total < LIMIT) req.end(JSON.stringify({ function: "0x1::a::b", type_arguments: [], arguments: [] }))
    else pump()
  })

describe("POST framing", () => {
  it("411 without Content-Length", async () => {
    const res = await raw(
      "POST /v1/view HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n"
    )
    expect(statusOf(res)).toBe(411)
    const body = JSON.parse(bodyOf(res))
    expect(body).toEqual({
      message: "Missing Content-Length header",
      error_code: "web_framework_error",
      vm_error_code: null
    })
    expectGolden("post_without_content_length", { status: 411, headers: {}, body: bodyOf(res) })
  })
  it("413 from Content-Length above the limit, before any body byte is read", async () => {
    const res = await raw(
      `POST /v1/transactions/encode_submission HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${LIMIT + 1}\r\n\r\n`,
      false
    )
    expect(statusOf(res)).toBe(413)
    expect(JSON.parse(bodyOf(res)).error_code).toBe("web_framework_error")
    expect(res.toLowerCase()).toContain("connection: close")
  })
  it("a chunked body is accepted under the limit and refused with 413 past it", async () => {
    expect((await chunked(10)).status).toBe(200)
    const big = await chunked(LIMIT * 64)
    expect(big.status).toBe(413)
    expect(JSON.parse(big.body).error_code).toBe("web_framework_error")
  })
  it("an exact-limit body is read", async () => {
    const body = JSON.stringify({ function: "0x1::a::b", type_arguments: [], arguments: [] }).padEnd(LIMIT, " ")
    const r = await fetch(server.url + "/v1/view", {
      method: "POST",
      body,
      headers: { "content-type": "application/json" }
    })
    expect(r.status).toBe(200)
  })
  it("415 for a missing Content-Type", async () => {
    const res = await raw("POST /v1/view HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
    expect(statusOf(res)).toBe(415)
  })
  it("Content-Type parameters are ignored", async () => {
    const r = await fetch(server.url + "/v1/view", {
      method: "POST",
      body: JSON.stringify({ function: "0x1::a::b", type_arguments: [], arguments: [] }),
      headers: { "content-type": "Application/JSON; charset=utf-8" }
    })
    expect(r.status).toBe(200)
  })
  it("a request Node's parser rejects still gets a JSON error body", async () => {
    const res = await raw("GARBAGE\r\n\r\n")
    expect(statusOf(res)).toBe(400)
    expect(JSON.parse(bodyOf(res)).error_code).toBe("web_framework_error")
    const huge = await raw(`GET /v1 HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`)
    expect(statusOf(huge)).toBe(431)
    expect(JSON.parse(bodyOf(huge)).error_code).toBe("web_framework_error")
  })
  it("the connection keeps serving after errors", async () => {
    const res = await raw(
      "GET /v1/nope HTTP/1.1\r\nHost: x\r\n\r\nGET /v1/estimate_gas_price HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
      false,
      true
    )
    expect(res.match(/HTTP\/1\.1 \d{3}/g)).toEqual(["HTTP/1.1 404", "HTTP/1.1 200"])
  })
})
