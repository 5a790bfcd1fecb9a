/**
 * encode_submission's order of checks on the real stack (aptos-api-behaviour §2.6): body parse
 * (400 web_framework_error) → verify (400 invalid_input) → `Accept: application/x-bcs` (400
 * bcs_not_supported) → conversion against the chain (400 invalid_input, with ledger headers).
 * The first three carry no ledger headers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningNode, startRun } from "./harness.js"

let node: RunningNode
beforeAll(async () => {
  node = await startRun("devnet")
})
afterAll(() => node.close())

const valid = {
  sender: "0xb0b",
  sequence_number: "0",
  max_gas_amount: "2000",
  gas_unit_price: "100",
  expiration_timestamp_secs: "1900000000",
  payload: {
    type: "entry_function_payload",
    function: "0x1::aptos_account::transfer",
    type_arguments: [],
    arguments: ["0xc0c", "5"]
  }
}
const withPayload = (payload: Record<string, unknown>) => ({ ...valid, payload: { ...valid.payload, ...payload } })

const post = async (body: string, accept?: string) => {
  const headers: Record<string, string> = { "content-type": "application/json" }
  if (accept !== undefined) headers.accept = accept
  const r = await fetch(`${node.url}/transactions/encode_submission`, { method: "POST", headers, body })
  const json = (await r.json()) as { error_code?: string; message?: string; vm_error_code?: unknown }
  return { status: r.status, json, ledgerHeader: r.headers.get("x-aptos-ledger-version") }
}

const cases: ReadonlyArray<{
  name: string
  body: string
  json: [number, string, boolean]
  bcs: [number, string, boolean]
}> = [
  { name: "not JSON", body: "{", json: [400, "web_framework_error", false], bcs: [400, "web_framework_error", false] },
  {
    name: "an unparsable sender",
    body: JSON.stringify({ ...valid, sender: "0xnothex" }),
    json: [400, "web_framework_error", false],
    bcs: [400, "web_framework_error", false]
  },
  {
    name: "a sequence number as a JSON number",
    body: JSON.stringify({ ...valid, sequence_number: 0 }),
    json: [400, "web_framework_error", false],
    bcs: [400, "web_framework_error", false]
  },
  {
    name: "an unparsable type argument (verify)",
    body: JSON.stringify(withPayload({ type_arguments: ["u9"] })),
    json: [400, "invalid_input", false],
    bcs: [400, "invalid_input", false]
  },
  {
    name: "a module bundle payload (verify)",
    body: JSON.stringify({ ...valid, payload: { type: "module_bundle_payload" } }),
    json: [400, "invalid_input", false],
    bcs: [400, "invalid_input", false]
  },
  {
    name: "a missing argument (conversion)",
    body: JSON.stringify(withPayload({ arguments: ["0xc0c"] })),
    json: [400, "invalid_input", true],
    bcs: [400, "bcs_not_supported", false]
  },
  {
    name: "a valid request",
    body: JSON.stringify(valid),
    json: [200, "", true],
    bcs: [400, "bcs_not_supported", false]
  }
]

describe("encode_submission: the reference's order of checks", () => {
  for (const c of cases)
    it(`${c.name}: JSON ${c.json[0]} ${c.json[1] || "ok"}, BCS ${c.bcs[0]} ${c.bcs[1]}`, async () => {
      for (const [accept, [status, code, headers]] of [
        [undefined, c.json],
        ["application/x-bcs", c.bcs]
      ] as const) {
        const r = await post(c.body, accept)
        expect(r.status, `${accept}`).toBe(status)
        if (status === 200) expect(typeof r.json).toBe("string")
        else {
          expect(r.json.error_code, `${accept}: ${r.json.message}`).toBe(code)
          expect(r.json.vm_error_code).toBeNull()
        }
        expect(r.ledgerHeader !== null, `${accept} ledger headers`).toBe(headers)
      }
    })

  it("verify failures carry the reference's prefix; BCS rejection its message", async () => {
    const v = await post(JSON.stringify(withPayload({ type_arguments: ["u9"] })), "application/x-bcs")
    expect(v.json.message?.startsWith("'UserTransactionRequest' invalid: ")).toBe(true)
    const b = await post(JSON.stringify(valid), "application/x-bcs")
    expect(b.json.message).toBe("BCS is not supported for encode submission")
  })
})
