import { Result, Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { EncodeSubmissionRequestJson as EncodeSubmissionRequestApiJson } from "../../src/http/groups/TransactionsGroup.js"
import { expectGolden, record } from "./golden.js"
import { startServer } from "./serverHarness.js"
import { type Calls, makeTestNode } from "./TestNode.js"

/** The JSON body of a response, untyped (tests inspect it field by field). */
const j = (r: Response): Promise<any> => r.json()

const calls: Calls = { balance: [], summaries: [], view: [], encode: [] }
let server: Awaited<ReturnType<typeof startServer>>
beforeAll(async () => {
  server = await startServer(makeTestNode(calls))
})
afterAll(() => server.close())

const get = (path: string, accept?: string) =>
  fetch(server.url + path, accept === undefined ? {} : { headers: { accept } })
const post = (path: string, body: string | Uint8Array, contentType = "application/json", accept?: string) =>
  fetch(server.url + path, {
    method: "POST",
    body,
    headers: { "content-type": contentType, ...(accept === undefined ? {} : { accept }) }
  })
const bytes = async (r: Response) => new Uint8Array(await r.arrayBuffer())

const LEDGER_HEADERS = {
  "x-service-chain-id": "4",
  "x-service-ledger-version": "1000",
  "x-service-ledger-oldest-version": "100",
  "x-service-ledger-timestampusec": "1700000000000000",
  "x-service-epoch": "2",
  "x-service-block-height": "50",
  "x-service-oldest-block-height": "5"
}
const expectLedgerHeaders = (r: Response) => {
  for (const [k, v] of Object.entries(LEDGER_HEADERS)) expect(r.headers.get(k), k).toBe(v)
}
const expectNoLedgerHeaders = (r: Response) => {
  for (const k of Object.keys(LEDGER_HEADERS)) expect(r.headers.get(k), k).toBeNull()
}

describe("GET /v1 and health", () => {
  it("serves the ledger info with decimal strings and a numeric chain id", async () => {
    const r = await get("/v1")
    expect(r.status).toBe(200)
    expectLedgerHeaders(r)
    expect(await j(r.clone())).toEqual({
      chain_id: 4,
      epoch: "2",
      ledger_version: "1000",
      oldest_ledger_version: "100",
      ledger_timestamp: "1700000000000000",
      node_role: "full_node",
      oldest_block_height: "5",
      block_height: "50"
    })
    expectGolden("ledger_info", await record(r))
  })
  it("answers /v1/-/healthy", async () => {
    const r = await get("/v1/-/healthy")
    expect(r.status).toBe(200)
    expect(await j(r.clone())).toEqual({ message: "movenode:ok" })
    expectGolden("healthy", await record(r))
  })
  it("accepts a trailing slash on /v1/", async () => {
    expect((await get("/v1/")).status).toBe(200)
  })
})

describe("balance", () => {
  it("writes u64::MAX with all its digits", async () => {
    const r = await get("/v1/accounts/0x1/balance/0x1::aptos_coin::AptosCoin")
    expect(r.status).toBe(200)
    expectLedgerHeaders(r)
    expect(r.headers.get("content-type")).toBe("application/json")
    const rec = await record(r)
    expect(rec.body).toBe("18446744073709551615")
    expectGolden("balance_coin", rec)
  })
  it("reads a bare address as a fungible-asset metadata address, a struct tag as a coin", async () => {
    calls.balance.length = 0
    expect(await (await get("/v1/accounts/2/balance/a")).text()).toBe("12345")
    expect(await (await get("/v1/accounts/2/balance/0x1%3A%3Acoin%3A%3AFoo%3C0x1%3A%3Aa%3A%3AB%3E")).text()).toBe(
      "12345"
    )
    const [fa, coin] = calls.balance as Array<{ asset: any }>
    expect(fa!.asset._tag).toBe("FungibleAsset")
    expect(fa!.asset.metadata[31]).toBe(10)
    expect(coin!.asset).toEqual({ _tag: "Coin", structTag: "0x1::coin::Foo<0x1::a::B>" })
  })
  it("answers BCS as u64 little endian", async () => {
    const r = await get("/v1/accounts/0x1/balance/0xa", "application/x-bcs")
    expect(r.headers.get("content-type")).toBe("application/x-bcs")
    expectLedgerHeaders(r)
    expect([...(await bytes(r))]).toEqual([255, 255, 255, 255, 255, 255, 255, 255])
  })
  it("404 version_not_found and 410 version_pruned carry ledger headers", async () => {
    const r404 = await get("/v1/accounts/0x1/balance/0xa?ledger_version=1001")
    expect(r404.status).toBe(404)
    expectLedgerHeaders(r404)
    expect(await j(r404.clone())).toEqual({
      message: "Ledger version not found by Ledger version(1001)",
      error_code: "version_not_found",
      vm_error_code: null
    })
    expectGolden("balance_version_not_found", await record(r404))
    const r410 = await get("/v1/accounts/0x1/balance/0xa?ledger_version=99")
    expect(r410.status).toBe(410)
    expectLedgerHeaders(r410)
    expect((await j(r410)).error_code).toBe("version_pruned")
  })
  it("400 web_framework_error without ledger headers for bad paths and queries", async () => {
    for (const p of [
      "/v1/accounts/xyz/balance/0xa",
      "/v1/accounts/0x0x12/balance/0xa",
      `/v1/accounts/0x${"1".repeat(65)}/balance/0xa`,
      "/v1/accounts/0x1/balance/not-a-type",
      "/v1/accounts/0x1/balance/0x1::a::B%3C",
      "/v1/accounts/0x1/balance/%E0%A4%A",
      "/v1/accounts/0x1/balance/0xa?ledger_version=-1",
      "/v1/accounts/0x1/balance/0xa?ledger_version=abc",
      "/v1/accounts/0x1/balance/0xa?ledger_version=18446744073709551616"
    ]) {
      const r = await get(p)
      expect(r.status, p).toBe(400)
      expectNoLedgerHeaders(r)
      const body = await j(r)
      expect(body.error_code, p).toBe("web_framework_error")
      expect(body.vm_error_code).toBeNull()
    }
    expectGolden("balance_bad_address", await record(await get("/v1/accounts/xyz/balance/0xa")))
  })
})

describe("module", () => {
  it("serves bytecode and ABI, or the raw bytes in BCS", async () => {
    const r = await get("/v1/accounts/0x1/module/guid")
    expect(r.status).toBe(200)
    expectLedgerHeaders(r)
    const body = await j(r.clone())
    expect(body.bytecode).toBe("0xa11ceb0b0700000a")
    expect(body.abi.name).toBe("guid")
    expectGolden("module", await record(r))
    const b = await get("/v1/accounts/1/module/guid?ledger_version=500", "application/x-bcs, application/json")
    expect([...(await bytes(b))]).toEqual([0xa1, 0x1c, 0xeb, 0x0b, 7, 0, 0, 10])
  })
  it("404 module_not_found with ledger headers; 400 for a bad identifier", async () => {
    const r = await get("/v1/accounts/0x1/module/nope")
    expect(r.status).toBe(404)
    expectLedgerHeaders(r)
    expect((await j(r.clone())).error_code).toBe("module_not_found")
    expectGolden("module_not_found", await record(r))
    for (const name of ["1abc", "a-b", "a%3A%3Ab", "_"]) {
      const bad = await get(`/v1/accounts/0x1/module/${name}`)
      expect(bad.status, name).toBe(400)
      expectNoLedgerHeaders(bad)
    }
  })
})

describe("transaction summaries", () => {
  it("serves JSON with replay protectors and a CURSOR when the page is full", async () => {
    const r = await get("/v1/accounts/0x1/transaction_summaries?limit=2")
    expect(r.status).toBe(200)
    expectLedgerHeaders(r)
    expect(r.headers.get("x-service-cursor")).toBe("999")
    const body = await j(r.clone())
    expect(body.map((s: any) => s.replay_protector)).toEqual([
      { type: "sequence_number", sequence_number: "0" },
      { type: "nonce", nonce: "42" }
    ])
    expectGolden("transaction_summaries", await record(r))
  })
  it("passes the bounds and limit through and omits CURSOR on a last page", async () => {
    calls.summaries.length = 0
    const r = await get("/v1/accounts/0x1/transaction_summaries?start_version=150&end_version=998&limit=65535")
    expect(r.headers.get("x-service-cursor")).toBeNull()
    expect((await j(r)).map((s: any) => s.version)).toEqual(["205"])
    expect((calls.summaries[0] as any).query).toEqual({ startVersion: 150n, endVersion: 998n, limit: 65535 })
  })
  it("answers [] for an account without transactions", async () => {
    expect(await (await get("/v1/accounts/0x2/transaction_summaries")).text()).toBe("[]")
  })
  it("encodes the BCS vector of IndexedTransactionSummary", async () => {
    const b = await bytes(await get("/v1/accounts/0x1/transaction_summaries?limit=2", "application/x-bcs"))
    // ULEB count 2; item: variant 0, sender 32, version u64, hash ULEB 32 + 32, protector tag + u64.
    expect(b.length).toBe(1 + 2 * (1 + 32 + 8 + 1 + 32 + 1 + 8))
    expect(b[0]).toBe(2)
    expect(b[1]).toBe(0)
    expect(b[1 + 1 + 32]).toBe(101)
    expect(b[1 + 1 + 32 + 8]).toBe(32)
    expect(b[1 + 1 + 32 + 8 + 1 + 32]).toBe(1) // SequenceNumber = 1
    const second = 1 + 83
    expect(b[second + 1 + 32 + 8 + 1 + 32]).toBe(0) // Nonce = 0
    expect(b[second + 1 + 32 + 8 + 1 + 32 + 1]).toBe(42)
  })
  it("400 for a limit that is not a u16", async () => {
    for (const q of ["limit=65536", "limit=x", "start_version=1.5", "end_version="]) {
      const r = await get(`/v1/accounts/0x1/transaction_summaries?${q}`)
      expect(r.status, q).toBe(400)
      expect((await j(r)).error_code).toBe("web_framework_error")
    }
  })
})

describe("gas estimate", () => {
  it("serves JSON numbers, or gas_estimate as u64 in BCS", async () => {
    const r = await get("/v1/estimate_gas_price", "text/html")
    expect(r.status).toBe(200)
    expectLedgerHeaders(r)
    const rec = await record(r)
    expect(rec.body).toEqual({ deprioritized_gas_estimate: 100, gas_estimate: 100, prioritized_gas_estimate: 150 })
    expectGolden("estimate_gas_price", rec)
    const b = await get("/v1/estimate_gas_price", "application/json;q=0.1, application/x-bcs")
    expect(b.headers.get("content-type")).toBe("application/json")
    const c = await get("/v1/estimate_gas_price", "*/*, application/x-bcs;q=0.5")
    expect([...(await bytes(c))]).toEqual([100, 0, 0, 0, 0, 0, 0, 0])
  })
})

describe("view", () => {
  const request = JSON.stringify({ function: "0x1::coin::balance", type_arguments: [], arguments: ["0x1"] })
  it("serves a JSON array with GAS-USED", async () => {
    const r = await post("/v1/view?ledger_version=1000", request)
    expect(r.status).toBe(200)
    expectLedgerHeaders(r)
    expect(r.headers.get("x-service-gas-used")).toBe("7")
    expectGolden("view", await record(r))
  })
  it("answers BCS as ULEB count then the values", async () => {
    const r = await post("/v1/view", request, "application/json", "application/x-bcs")
    expect(r.headers.get("x-service-gas-used")).toBe("7")
    expect([...(await bytes(r))]).toEqual([2, 100, 0, 0, 0, 0, 0, 0, 0, 8])
  })
  it("accepts both BCS request media types and passes the bytes through", async () => {
    for (const t of ["application/x.service.view_function+bcs", "application/x.aptos.view_function+bcs"]) {
      calls.view.length = 0
      const r = await post("/v1/view", new Uint8Array([9, 8, 7]), t)
      expect(r.status, t).toBe(200)
      const sent = calls.view[0] as { _tag: string; body: Uint8Array }
      expect(sent._tag).toBe("Bcs")
      expect([...sent.body]).toEqual([9, 8, 7])
    }
  })
  it("maps a node failure with vm_error_code and ledger headers", async () => {
    const r = await post(
      "/v1/view",
      JSON.stringify({ function: "0x1::test::abort", type_arguments: [], arguments: [] })
    )
    expect(r.status).toBe(400)
    expectLedgerHeaders(r)
    expect(await j(r.clone())).toEqual({
      message: "Move abort in 0x1::test: 0x10001",
      error_code: "invalid_input",
      vm_error_code: 4016
    })
    expectGolden("view_abort", await record(r))
  })
  it("turns a defect into 500 internal_error", async () => {
    const r = await post("/v1/view", JSON.stringify({ function: "0x1::test::die", type_arguments: [], arguments: [] }))
    expect(r.status).toBe(500)
    expect(await j(r)).toEqual({ message: "Internal server error", error_code: "internal_error", vm_error_code: null })
  })
  it("400 web_framework_error for unparsable or mis-shaped JSON, 415 for another media type", async () => {
    for (const body of ["{", "[]", `{"function":1,"type_arguments":[],"arguments":[]}`, `{"function":"x"}`]) {
      const r = await post("/v1/view", body)
      expect(r.status, body).toBe(400)
      expectNoLedgerHeaders(r)
      expect((await j(r)).error_code).toBe("web_framework_error")
    }
    const r = await post("/v1/view", request, "text/plain")
    expect(r.status).toBe(415)
    expect(await j(r.clone())).toEqual({
      message: "the `Content-Type` requested by the client is not supported: text/plain",
      error_code: "web_framework_error",
      vm_error_code: null
    })
    expectGolden("view_unsupported_media_type", await record(r))
  })
})

describe("encode_submission", () => {
  const body = {
    sender: "0x1",
    sequence_number: "0",
    max_gas_amount: "2000",
    gas_unit_price: "100",
    expiration_timestamp_secs: "9999999999",
    payload: {
      type: "entry_function_payload",
      function: "0x1::aptos_account::transfer",
      type_arguments: [],
      arguments: ["0x2", "1"]
    }
  }
  it("returns the signing message as a hex JSON string and hands the JSON to the node", async () => {
    calls.encode.length = 0
    const r = await post("/v1/transactions/encode_submission", JSON.stringify({ ...body, signature: "ignored" }))
    expect(r.status).toBe(200)
    expectLedgerHeaders(r)
    expectGolden("encode_submission", await record(r))
    expect((calls.encode[0] as any).payload.function).toBe("0x1::aptos_account::transfer")
  })
  it("400 bcs_not_supported for Accept: application/x-bcs, without ledger headers", async () => {
    const r = await post(
      "/v1/transactions/encode_submission",
      JSON.stringify(body),
      "application/json",
      "application/x-bcs"
    )
    expect(r.status).toBe(400)
    expectNoLedgerHeaders(r)
    expect((await j(r)).error_code).toBe("bcs_not_supported")
  })
  it("conversion failures are 400 invalid_input with ledger headers", async () => {
    const r = await post("/v1/transactions/encode_submission", JSON.stringify({ ...body, sender: "0xbad" }))
    expect(r.status).toBe(400)
    expectLedgerHeaders(r)
    expect((await j(r)).error_code).toBe("invalid_input")
  })
  it("a missing field is 400 web_framework_error; a BCS body is 415", async () => {
    const { sender: _, ...rest } = body
    const r = await post("/v1/transactions/encode_submission", JSON.stringify(rest))
    expect(r.status).toBe(400)
    expect((await j(r)).error_code).toBe("web_framework_error")
    const r2 = await post("/v1/transactions/encode_submission", "x", "application/x.aptos.view_function+bcs")
    expect(r2.status).toBe(415)
  })
  it("a body the fast shape check passes on (null optional field) gets the Api Schema's own error", async () => {
    const withNull = { ...body, replay_protection_nonce: null }
    const r = await post("/v1/transactions/encode_submission", JSON.stringify(withNull))
    expect(r.status).toBe(400)
    expectNoLedgerHeaders(r)
    const decoded = Schema.decodeUnknownResult(EncodeSubmissionRequestApiJson)(withNull)
    if (Result.isSuccess(decoded)) throw new Error("the Api Schema is expected to reject null")
    expect(await j(r)).toEqual({
      message: `parse request payload error: ${decoded.failure.message} (occurred while parsing "EncodeSubmissionRequest")`,
      error_code: "web_framework_error",
      vm_error_code: null
    })
  })
})

describe("routing", () => {
  it("404 web_framework_error for unknown paths, 405 with Allow for a wrong method", async () => {
    const r = await get("/v1/nope")
    expect(r.status).toBe(404)
    expect((await j(r.clone())).error_code).toBe("web_framework_error")
    expectGolden("not_found", await record(r))
    const m = await fetch(server.url + "/v1/estimate_gas_price", { method: "DELETE" })
    expect(m.status).toBe(405)
    expect(m.headers.get("allow")).toBe("GET")
    expect((await j(m)).error_code).toBe("web_framework_error")
    const v = await fetch(server.url + "/v1/view")
    expect(v.status).toBe(405)
    expect(v.headers.get("allow")).toBe("POST")
  })
})
