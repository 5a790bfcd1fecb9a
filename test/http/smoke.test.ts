import { afterAll, beforeAll, expect, it } from "vitest"
import { startServer } from "./serverHarness.js"
import { makeTestNode } from "./TestNode.js"

let server: Awaited<ReturnType<typeof startServer>>
beforeAll(async () => {
  server = await startServer(makeTestNode())
})
afterAll(() => server.close())

it("smoke", async () => {
  for (const p of ["/v1", "/v1/-/healthy", "/v1/estimate_gas_price", "/v1/accounts/0x1/balance/0x1::aptos_coin::AptosCoin", "/v1/accounts/1/module/guid", "/v1/accounts/0x1/transaction_summaries?limit=2", "/v1/nope", "/v1/accounts/xyz/balance/0xa"]) {
    const r = await fetch(server.url + p)
    console.log(p, r.status, [...r.headers].map(([k, v]) => `${k}=${v}`).join(" "), (await r.text()).slice(0, 300))
  }
  const r = await fetch(server.url + "/v1/view", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ function: "0x1::a::b", type_arguments: [], arguments: [] }) })
  console.log(r.status, [...r.headers].map(([k, v]) => `${k}=${v}`).join(" "), await r.text())
  expect(1).toBe(1)
})
