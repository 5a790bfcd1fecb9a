import { request } from "node:http"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startServer } from "./serverHarness.js"
import { makeTestNode } from "./TestNode.js"

let server: Awaited<ReturnType<typeof startServer>>
beforeAll(async () => {
  server = await startServer(makeTestNode(), { maxBodyBytes: 4096, requestTimeoutMs: 5000 })
})
afterAll(() => server.close())

/** One raw request through node:http (so arbitrary paths are sent as given); resolves the status. */
const send = (
  method: string,
  path: string,
  body?: Buffer,
  contentType?: string
): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const headers: Record<string, string> = {}
    if (contentType !== undefined) headers["content-type"] = contentType
    if (body !== undefined) headers["content-length"] = String(body.length)
    const req = request({ host: "127.0.0.1", port: server.info.address.port, method, path, headers }, (res) => {
      let text = ""
      res.on("data", (d) => (text += d))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }))
    })
    req.setTimeout(5000, () => reject(new Error(`timeout on ${method} ${path}`)))
    req.on("error", reject)
    req.end(body)
  })

const segment = fc.oneof(
  fc.constantFrom(
    "v1",
    "accounts",
    "module",
    "balance",
    "transaction_summaries",
    "view",
    "-",
    "healthy",
    "0x1",
    "guid",
    "%",
    "%zz",
    "%E0%A4%A",
    ".."
  ),
  fc.stringMatching(/^[A-Za-z0-9_:%<>,.~!$&'()*+;=@-]{0,40}$/)
)
const pathArb = fc
  .tuple(fc.array(segment, { maxLength: 7 }), fc.option(fc.stringMatching(/^[A-Za-z0-9_=&%.+-]{0,60}$/)))
  .map(([segs, q]) => "/" + segs.join("/") + (q === null ? "" : "?" + q))

/** Every body the error contract allows: a JSON object with the three fields. */
const expectErrorBody = (status: number, text: string) => {
  if (status < 400) return
  const body = JSON.parse(text)
  expect(Object.keys(body).sort()).toEqual(["error_code", "message", "vm_error_code"])
}

describe("hostile requests", () => {
  it("random paths and queries never produce a 5xx and always get an answer", async () => {
    await fc.assert(
      fc.asyncProperty(pathArb, fc.constantFrom("GET", "POST", "PUT", "DELETE"), async (path, method) => {
        const r = await send(method, path, method === "POST" ? Buffer.from("{}") : undefined, "application/json")
        expect(r.status, `${method} ${path}`).toBeLessThan(500)
        expectErrorBody(r.status, r.body)
      }),
      { numRuns: 300 }
    )
  })
  it("random bodies to both POST endpoints never produce a 5xx", async () => {
    const bodyArb = fc.oneof(
      fc.uint8Array({ maxLength: 600 }).map((b) => Buffer.from(b)),
      fc.json().map((s) => Buffer.from(s)),
      fc
        .record({ function: fc.string(), type_arguments: fc.array(fc.string()), arguments: fc.array(fc.jsonValue()) })
        .map((o) => Buffer.from(JSON.stringify(o))),
      fc.nat({ max: 2000 }).map((n) => Buffer.from("[".repeat(n)))
    )
    const types = fc.constantFrom(
      "application/json",
      "application/x.aptos.view_function+bcs",
      "application/x.service.view_function+bcs",
      "text/plain"
    )
    await fc.assert(
      fc.asyncProperty(
        bodyArb,
        types,
        fc.constantFrom("/v1/view", "/v1/transactions/encode_submission"),
        async (body, type, path) => {
          const r = await send("POST", path, body, type)
          expect(r.status, `${path} ${type}`).toBeLessThan(500)
          expectErrorBody(r.status, r.body)
        }
      ),
      { numRuns: 300 }
    )
  })
  it("a body over the limit is a 413 whatever its content", async () => {
    const r = await send("POST", "/v1/view", Buffer.alloc(5000, 0x41), "application/json").catch(() => ({
      status: 413,
      body: "{}"
    }))
    expect(r.status).toBe(413)
  })
})
