/**
 * `POST /v1/experimental/state_values/raw`, as the reference serves it (api/src/state.rs
 * `get_raw_state_value` / `raw_value`): BCS only (a JSON Accept is 403 `api_disabled`), the version
 * rules first, the key a hex BCS `StateKey` (one that does not decode is 500 `internal_error`, as
 * there), absent = 404 `state_value_not_found`; the answer is BCS of the whole `StateValue`.
 */
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Bcs, toHex } from "../../src/bcs/index.js"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { stateKeyCodec } from "../../src/domain/StateKeyCodec.js"
import { stateValueCodec } from "../../src/domain/StateValueCodec.js"
import { type ReadsNode, startReadsNode } from "../reads/readsNode.js"

let n: ReadsNode
beforeAll(async () => {
  n = await startReadsNode("devnet")
}, 60_000)
afterAll(() => n.close())

const chainIdKey = Bcs.encode(stateKeyCodec, {
  _tag: "AccessPath",
  address: addressFromNumber(1),
  path: {
    _tag: "Resource",
    struct: { address: addressFromNumber(1), module: "chain_id", name: "ChainId", typeArgs: [] }
  }
})

const post = (body: string, query = "", accept = "application/x-bcs") =>
  n.get(`/v1/experimental/state_values/raw${query}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept },
    body
  })

const errorOf = async (r: Response) => {
  const j = (await r.json()) as Record<string, unknown>
  expect(Object.keys(j).sort()).toEqual(["error_code", "message", "vm_error_code"])
  return j
}

describe("POST /v1/experimental/state_values/raw", () => {
  it("answers a key's whole StateValue in BCS, with the ledger headers", async () => {
    for (const key of [toHex(chainIdKey), `0x${toHex(chainIdKey)}`]) {
      const r = await post(JSON.stringify({ key }))
      expect(r.status).toBe(200)
      expect(r.headers.get("content-type")).toBe("application/x-bcs")
      expect(r.headers.get("x-aptos-ledger-version")).toBe("0")
      const value = Bcs.decode(stateValueCodec, new Uint8Array(await r.arrayBuffer()))
      expect(value._tag).toBe("Success")
      // devnet's chain id, as GET /v1 says it
      if (value._tag === "Success") expect([...value.success.data]).toEqual([Number(r.headers.get("x-aptos-chain-id"))])
    }
  })

  it("refuses a JSON answer with 403 api_disabled", async () => {
    const r = await post(JSON.stringify({ key: toHex(chainIdKey) }), "", "application/json")
    expect(r.status).toBe(403)
    expect(await errorOf(r)).toEqual({
      error_code: "api_disabled",
      message: "Get raw state value is not allowed. Only BCS is supported as an AcceptType.",
      vm_error_code: null
    })
  })

  it("an absent key is 404 state_value_not_found, naming the key and the version", async () => {
    const absent = Bcs.encode(stateKeyCodec, {
      _tag: "TableItem",
      handle: addressFromNumber(0xabc),
      key: Uint8Array.of(1)
    })
    const r = await post(JSON.stringify({ key: toHex(absent) }))
    expect(r.status).toBe(404)
    const e = await errorOf(r)
    expect(e.error_code).toBe("state_value_not_found")
    expect(e.message).toBe(`Raw State Value not found by StateKey(0x${toHex(absent)}) and Ledger version(0)`)
    expect(r.headers.get("x-aptos-ledger-version")).toBe("0")
  })

  it("applies the version rules before decoding the key (the body is parsed first)", async () => {
    const r = await post(JSON.stringify({ key: "03" }), "?ledger_version=99")
    expect(r.status).toBe(404)
    expect((await errorOf(r)).error_code).toBe("version_not_found")
    const bad = await post(JSON.stringify({ key: toHex(chainIdKey) }), "?ledger_version=abc")
    expect(bad.status).toBe(400)
  })

  it("a body that is not a request is 400; bytes that are not a StateKey are 500 internal_error", async () => {
    for (const body of ["", "{", "[]", '{"key": 5}', '{"nokey": "00"}', '{"key": "0xz"}', '{"key": "abc"}']) {
      const r = await post(body)
      expect(r.status, body).toBe(400)
      await errorOf(r)
    }
    const r = await post(JSON.stringify({ key: "03" }))
    expect(r.status).toBe(500)
    const e = await errorOf(r)
    expect(e.error_code).toBe("internal_error")
    expect(e.message).toMatch(/^Failed deserializing state value\. key: 0x03/)
  })

  it("any key bytes: 200 only for a StateKey that holds a value, 404 for one that does not, 500 for the rest", async () => {
    const keys = fc.oneof(
      fc.uint8Array({ maxLength: 80 }),
      // Valid shapes with random contents: table items and raw keys decode.
      fc
        .tuple(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ maxLength: 40 }))
        .map(([h, k]) => Bcs.encode(stateKeyCodec, { _tag: "TableItem", handle: h, key: k }))
    )
    await fc.assert(
      fc.asyncProperty(keys, async (key) => {
        const r = await post(JSON.stringify({ key: toHex(key) }))
        const decodes = Bcs.decode(stateKeyCodec, key)._tag === "Success"
        if (!decodes) expect(r.status).toBe(500)
        else expect([200, 404]).toContain(r.status)
        if (r.status !== 200) await errorOf(r)
        else await r.arrayBuffer()
      }),
      { numRuns: 150 }
    )
  })
})
