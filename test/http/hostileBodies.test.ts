/**
 * Issue 11 items 1-2 replayed against the real node (devnet genesis, LMDB, view workers): 8 MB
 * bodies answer a small 400 and never reach JSON.parse's seconds of work or a view worker, while
 * normal views and health checks sent at the same time answer as usual.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningNode, startRun } from "../conformance/harness.js"

let node: RunningNode
beforeAll(async () => {
  node = await startRun("devnet")
})
afterAll(() => node.close())

const post = (path: string, body: string) =>
  fetch(`${node.url}${path}`, { method: "POST", body, headers: { "content-type": "application/json" } })

const nested = (n: number) => Array(n).fill("[[[[1]]]]").join(",")
const VIEW_8MB = `{"function":"0x1::coin::name","type_arguments":["0x1::aptos_coin::AptosCoin"],"arguments":[${nested(800_000)}]}`
const FLAT = `{"function":"0x1::coin::name","type_arguments":["0x1::aptos_coin::AptosCoin"],"arguments":[${Array(4_000_000).fill("1").join(",")}]}`
const ENCODE_8MB = `{"sender":"0x1","sequence_number":"0","max_gas_amount":"1","gas_unit_price":"1","expiration_timestamp_secs":"1","payload":{"type":"entry_function_payload","function":"0x1::aptos_account::transfer","type_arguments":[],"arguments":[${nested(800_000)}]}}`
/** Within the body limits: 16,000 arguments, the count error prints a bounded prefix of them. */
const MANY_ARGS = `{"function":"0x1::coin::name","type_arguments":["0x1::aptos_coin::AptosCoin"],"arguments":[${Array(16_000).fill("[1]").join(",")}]}`

describe("hostile bodies (issue 11)", () => {
  it("answer a small 400 each, while normal views and health checks answer as usual", async () => {
    const normal = async () => {
      const r = await post(
        "/view",
        '{"function":"0x1::coin::name","type_arguments":["0x1::aptos_coin::AptosCoin"],"arguments":[]}'
      )
      return [r.status, await r.text()] as const
    }
    const health = async () => (await fetch(`${node.url}/-/healthy`)).status
    const hostile = [post("/view", VIEW_8MB), post("/view", FLAT), post("/transactions/encode_submission", ENCODE_8MB)]
    const others = await Promise.all([normal(), health(), normal(), health(), normal()])
    for (const o of others)
      expect(o === 200 || (Array.isArray(o) && o[0] === 200 && o[1] === '["Aptos Coin"]'), String(o)).toBe(true)
    for (const r of await Promise.all(hostile)) {
      expect(r.status).toBe(400)
      const text = await r.text()
      expect(text.length).toBeLessThan(300)
      expect(JSON.parse(text)).toMatchObject({ error_code: "web_framework_error", vm_error_code: null })
    }
    const many = await post("/view", MANY_ARGS)
    expect(many.status).toBe(400)
    const body = (await many.json()) as { message: string; error_code: string }
    expect(body.error_code).toBe("invalid_input")
    expect(body.message).toMatch(/^expected 0 arguments \[\], but got 16000 \(\[Array \[Number\(1\)\], /)
    expect(body.message.length).toBeLessThan(500)
  })
})
