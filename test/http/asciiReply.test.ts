import { request } from "node:http"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TransactionSummary } from "../../src/ledger/Ledger.js"
import { summariesJson } from "../../src/http/Render.js"
import { asciiJsonReply } from "../../src/http/Reply.js"
import { startServer } from "./serverHarness.js"
import { LEDGER, makeTestNode, SUMMARIES } from "./TestNode.js"

// Replies flagged `ascii` are written as latin1 with `content-length` = string length: that is only
// right while the body is ASCII. These tests pin both halves: the renderer's output is ASCII for any
// page, and on the wire the length matches the bytes received.

const bytes32 = fc.uint8Array({ minLength: 32, maxLength: 32 })
const u64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n })
const summary: fc.Arbitrary<TransactionSummary> = fc.record({
  sender: bytes32,
  version: u64,
  hash: bytes32,
  replayProtector: fc.oneof(
    u64.map((sequenceNumber) => ({ _tag: "SequenceNumber" as const, sequenceNumber })),
    u64.map((nonce) => ({ _tag: "Nonce" as const, nonce }))
  )
})

describe("summariesJson is ASCII JSON", () => {
  it("for any page: only bytes < 0x80, parses as JSON, one item per summary", () => {
    fc.assert(
      fc.property(fc.array(summary, { maxLength: 30 }), (page) => {
        const text = summariesJson(page)
        expect(/^[\x20-\x7e]*$/.test(text)).toBe(true)
        const parsed = JSON.parse(text) as Array<{ version: string }>
        expect(parsed.map((s) => s.version)).toEqual(page.map((s) => s.version.toString()))
      })
    )
  })

  it("asciiJsonReply marks the reply", () => {
    expect(asciiJsonReply("[]", LEDGER).ascii).toBe(true)
  })
})

describe("ascii replies on the wire", () => {
  let server: Awaited<ReturnType<typeof startServer>>
  beforeAll(async () => {
    server = await startServer(makeTestNode())
  })
  afterAll(() => server.close())

  const raw = (path: string) =>
    new Promise<{ length: string | undefined; body: Buffer }>((ok, fail) => {
      const req = request(server.url + path, (res) => {
        const chunks: Buffer[] = []
        res.on("data", (c: Buffer) => chunks.push(c))
        res.on("end", () => ok({ length: res.headers["content-length"], body: Buffer.concat(chunks) }))
        res.on("error", fail)
      })
      req.on("error", fail)
      req.end()
    })

  it("summaries: content-length is the byte count, body is the rendered page", async () => {
    const r = await raw("/v1/accounts/0x1/transaction_summaries?limit=25")
    expect(r.length).toBe(String(r.body.length))
    expect(r.body.toString("latin1")).toBe(summariesJson(SUMMARIES))
  })

  it("balance: content-length is the byte count of the digits", async () => {
    const r = await raw("/v1/accounts/0x1/balance/0x1::aptos_coin::AptosCoin")
    expect(r.length).toBe(String(r.body.length))
    expect(r.body.toString()).toMatch(/^[0-9]+$/)
  })
})
