/**
 * Hostile input on every read path and query (as test/http/fuzz.test.ts does for the first six
 * endpoints): malformed addresses, types and numbers, deep and long type tags, huge limits, garbage
 * cursors and bodies. Every answer is a 4xx or a 200 with the contract's error body on errors:
 * never a 5xx, never a hang.
 */
import { request } from "node:http"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ReadsNode, startReadsNode } from "./readsNode.js"
import { commitSyntheticBlocks } from "./syntheticBlocks.js"

let n: ReadsNode
beforeAll(async () => {
  n = await startReadsNode("devnet")
  await commitSyntheticBlocks(n.handle.service)
}, 60_000)
afterAll(() => n.close())

/** One raw request (arbitrary paths are sent as given). */
const send = (
  method: string,
  path: string,
  body?: Buffer,
  headers: Record<string, string> = {}
): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const all: Record<string, string> = { ...headers }
    if (body !== undefined) {
      all["content-length"] = String(body.length)
      all["content-type"] ??= "application/json"
    }
    const port = Number(new URL(n.origin).port)
    const req = request({ host: "127.0.0.1", port, method, path, headers: all }, (res) => {
      let text = ""
      res.on("data", (d) => (text += d))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }))
    })
    req.setTimeout(10_000, () => reject(new Error(`timeout on ${method} ${path}`)))
    req.on("error", reject)
    req.end(body)
  })

const expectNo5xx = (r: { status: number; body: string }, what: string) => {
  expect(r.status, `${what}: ${r.body.slice(0, 200)}`).toBeLessThan(500)
  if (r.status >= 400)
    expect(Object.keys(JSON.parse(r.body)).sort(), what).toEqual(["error_code", "message", "vm_error_code"])
}

const address = fc.oneof(
  fc.constantFrom(
    "0x1",
    "0xcafe",
    "0xa550c18",
    "1",
    "0x",
    "",
    "0x0x1",
    `0x${"f".repeat(64)}`,
    `0x${"1".repeat(65)}`,
    "zz",
    "%00",
    "%"
  ),
  fc.stringMatching(/^[0-9a-fA-FxX]{0,70}$/)
)
const nested = (depth: number, inner = "u8") => `${"0x1::option::Option<".repeat(depth)}${inner}${">".repeat(depth)}`
const structTag = fc.oneof(
  fc.constantFrom(
    "0x1::chain_id::ChainId",
    "0x1::account::Account",
    "0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>",
    "0x1::coin::CoinStore%3C0x1::aptos_coin::AptosCoin%3E",
    "0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin",
    "0x1::coin::CoinStore<>",
    "0x1::chain_id",
    "::::",
    "u64",
    "vector<u8>",
    "0x1::chain_id::ChainId<u8>",
    "0x1::object::ObjectCore",
    "0x1::account::Account<0x1::account::Account<0x1::account::Account>>",
    nested(8),
    nested(9),
    nested(200),
    `0x1::m::${"A".repeat(5000)}`,
    "%E0%A4%A",
    "0x1::m::S<&u8>",
    "0x1::m::S<signer>"
  ),
  fc.stringMatching(/^[A-Za-z0-9_:<>, %]{0,80}$/)
)
const number = fc.oneof(
  fc.constantFrom(
    "0",
    "1",
    "2",
    "6",
    "7",
    "-1",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999",
    "1e3",
    "0x10",
    "",
    " 1"
  ),
  fc.bigInt({ min: 0n, max: 1n << 70n }).map(String),
  fc.stringMatching(/^[0-9a-z-]{0,25}$/)
)
const query = fc
  .record(
    {
      ledger_version: number,
      start: fc.oneof(number, fc.stringMatching(/^[0-9a-fA-Fx]{0,200}$/)),
      limit: fc.oneof(number, fc.constantFrom("65535", "65536", "9999", "10000")),
      with_transactions: fc.constantFrom("true", "false", "1", "yes", "")
    },
    { requiredKeys: [] }
  )
  .map((q) => {
    const s = new URLSearchParams(q as Record<string, string>).toString()
    return s === "" ? "" : `?${s}`
  })
/** Encodes a segment, keeping its `%` escapes (valid or not) as they are. */
const enc = (s: string) =>
  s.includes("%") ? s.replace(/[^A-Za-z0-9_:<>,%.~!$&'()*+;=@-]/g, (c) => encodeURIComponent(c)) : encodeURIComponent(s)

const paths = fc.oneof(
  fc.tuple(address, query).map(([a, q]) => `/v1/accounts/${enc(a)}${q}`),
  fc.tuple(address, query).map(([a, q]) => `/v1/accounts/${enc(a)}/resources${q}`),
  fc.tuple(address, query).map(([a, q]) => `/v1/accounts/${enc(a)}/modules${q}`),
  fc.tuple(address, structTag, query).map(([a, t, q]) => `/v1/accounts/${enc(a)}/resource/${enc(t)}${q}`),
  fc.tuple(address, query).map(([a, q]) => `/v1/accounts/${enc(a)}/transactions${q}`),
  fc.tuple(address, number, query).map(([a, c, q]) => `/v1/accounts/${enc(a)}/events/${enc(c)}${q}`),
  fc
    .tuple(
      address,
      structTag,
      fc.oneof(
        fc.constantFrom("coin_register_events", "sequence_number", "guid_creation_num", "__proto__", "constructor", ""),
        fc.string({ maxLength: 20 })
      ),
      query
    )
    .map(([a, t, f, q]) => `/v1/accounts/${enc(a)}/events/${enc(t)}/${enc(f)}${q}`),
  fc.tuple(number, query).map(([v, q]) => `/v1/transactions/by_version/${enc(v)}${q}`),
  query.map((q) => `/v1/transactions${q}`),
  fc.tuple(number, query).map(([h, q]) => `/v1/blocks/by_height/${enc(h)}${q}`),
  fc.tuple(number, query).map(([v, q]) => `/v1/blocks/by_version/${enc(v)}${q}`)
)

describe("hostile input on the read endpoints", () => {
  it("random paths and queries of every GET route: never a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(paths, fc.constantFrom("application/json", "application/x-bcs"), async (path, accept) =>
        expectNo5xx(await send("GET", path, undefined, { accept }), path)
      ),
      { numRuns: 400 }
    )
  }, 300_000)

  it("random bodies for table items: never a 5xx", async () => {
    const typeText = fc.oneof(
      fc.constantFrom(
        "u64",
        "address",
        "u8",
        "vector<u8>",
        "0x1::string::String",
        "bool",
        "u256",
        nested(9),
        nested(300),
        "0x1::m::Missing",
        "signer",
        "&u64",
        "T0"
      ),
      fc.string({ maxLength: 40 })
    )
    const bodies = fc.oneof(
      fc
        .record({ key_type: typeText, value_type: typeText, key: fc.jsonValue({ maxDepth: 4 }) })
        .map((o) => Buffer.from(JSON.stringify(o))),
      fc
        .record({ key: fc.oneof(fc.stringMatching(/^[0-9a-f]{0,80}$/), fc.string({ maxLength: 20 })) })
        .map((o) => Buffer.from(JSON.stringify(o))),
      fc.json().map((s) => Buffer.from(s)),
      fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
      fc.nat({ max: 3000 }).map((k) => Buffer.from(`{"key_type":"u64","value_type":"u64","key":${"[".repeat(k)}`))
    )
    await fc.assert(
      fc.asyncProperty(
        bodies,
        fc.constantFrom("item", "raw_item"),
        address,
        fc.constantFrom("application/json", "application/x-bcs"),
        async (body, route, handle, accept) => {
          const path = `/v1/tables/${enc(handle)}/${route}`
          expectNo5xx(await send("POST", path, body, { accept }), path)
        }
      ),
      { numRuns: 300 }
    )
  }, 300_000)

  it("named hostile cases answer the reference's 4xx", async () => {
    const status = async (path: string) => {
      const r = await send("GET", path)
      return r.status === 200 ? 200 : `${r.status} ${JSON.parse(r.body).message.slice(0, 120)}`
    }
    expect(await status("/v1/accounts/0x1/resources?limit=70000")).toMatch(/^400/)
    expect(await status("/v1/accounts/0x1/resources?limit=65535")).toBe(200)
    expect(await status("/v1/accounts/0x1/resources?limit=0")).toMatch(/^400/)
    expect(await status("/v1/accounts/0x1/resources?start=zz")).toMatch(/^400/)
    expect(await status("/v1/accounts/0x1/resources?start=0102")).toMatch(/^400/)
    expect(await status(`/v1/accounts/0x1/resource/${encodeURIComponent(nested(9))}`)).toMatch(/^400/)
    expect(await status(`/v1/accounts/0x1/resource/${encodeURIComponent(nested(100))}`)).toMatch(/^400/)
    // Past the router's path bound: not even routed.
    expect(await status(`/v1/accounts/0x1/resource/${encodeURIComponent(nested(300))}`)).toMatch(/^404 Not Found/)
    expect(await status(`/v1/accounts/0x1/resource/0x1::m::${"A".repeat(5000)}`)).toMatch(/^400/)
    expect(await status("/v1/accounts/0x1/resource/u64")).toMatch(/^400/)
    expect(await status("/v1/transactions/by_version/18446744073709551616")).toMatch(/^400/)
    expect(await status("/v1/transactions/by_version/18446744073709551615")).toMatch(/^404/)
    expect(await status("/v1/blocks/by_height/1?with_transactions=maybe")).toMatch(/^400/)
    expect(await status("/v1/accounts/0xcafe/events/0x1::account::Account/__proto__")).toMatch(/^404/)
    expect(await status("/v1/accounts/0xcafe/events/18446744073709551615?start=18446744073709551615")).toBe(200)
  })
})
