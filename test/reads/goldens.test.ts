/**
 * Goldens of every read endpoint's answers (test/http/goldens/reads_*.json; UPDATE_GOLDENS=1
 * rewrites them, review the diff) over the devnet genesis and two synthetic blocks: JSON bodies,
 * headers, BCS bodies as hex, and the errors.
 */
import { afterAll, beforeAll, describe, it } from "vitest"
import { expectGolden, type Recorded, record } from "../http/golden.js"
import { type ReadsNode, startReadsNode } from "./readsNode.js"
import { CAFE, TABLE, commitSyntheticBlocks, hex, u64 } from "./syntheticBlocks.js"

let n: ReadsNode
beforeAll(async () => {
  n = await startReadsNode("devnet")
  await commitSyntheticBlocks(n.handle.service)
}, 60_000)
afterAll(() => n.close())

const get = async (path: string, accept?: string): Promise<Recorded> => {
  const r = await n.get(path, accept === undefined ? undefined : { headers: { accept } })
  if (accept !== "application/x-bcs" || r.status !== 200) return record(r)
  const { status, headers } = await record(r.clone())
  return { status, headers, body: hex(new Uint8Array(await r.arrayBuffer())) }
}

const post = async (path: string, body: unknown, accept?: string): Promise<Recorded> => {
  const r = await n.get(path, {
    method: "POST",
    headers: { "content-type": "application/json", ...(accept === undefined ? {} : { accept }) },
    body: JSON.stringify(body)
  })
  if (accept !== "application/x-bcs" || r.status !== 200) return record(r)
  const { status, headers } = await record(r.clone())
  return { status, headers, body: hex(new Uint8Array(await r.arrayBuffer())) }
}

const cafe = hex(CAFE)
const cases: ReadonlyArray<readonly [string, () => Promise<Recorded>]> = [
  ["reads_account", () => get(`/v1/accounts/${cafe}`)],
  ["reads_account_bcs", () => get(`/v1/accounts/${cafe}`, "application/x-bcs")],
  ["reads_account_stateless", () => get("/v1/accounts/0x1234")],
  ["reads_account_version_not_found", () => get(`/v1/accounts/${cafe}?ledger_version=100`)],
  ["reads_account_bad_address", () => get("/v1/accounts/0xzz")],
  ["reads_resources_page", () => get("/v1/accounts/0x1/resources?limit=3")],
  ["reads_resources_bcs", () => get(`/v1/accounts/${cafe}/resources`, "application/x-bcs")],
  ["reads_resource", () => get("/v1/accounts/0x1/resource/0x1::chain_id::ChainId")],
  ["reads_resource_group_member", () => get("/v1/accounts/0xa/resource/0x1::fungible_asset::Metadata")],
  ["reads_resource_not_found", () => get(`/v1/accounts/${cafe}/resource/0x1::chain_id::ChainId`)],
  ["reads_resource_bad_type", () => get("/v1/accounts/0x1/resource/0x1::chain_id")],
  ["reads_modules_page", () => get("/v1/accounts/0x1/modules?limit=2")],
  ["reads_account_transactions", () => get(`/v1/accounts/${cafe}/transactions`)],
  ["reads_events_by_creation_number", () => get(`/v1/accounts/${cafe}/events/0`)],
  ["reads_events_by_handle", () => get(`/v1/accounts/${cafe}/events/0x1::account::Account/coin_register_events`)],
  ["reads_events_bcs", () => get(`/v1/accounts/${cafe}/events/0`, "application/x-bcs")],
  ["reads_transactions_page", () => get("/v1/transactions?start=1&limit=6")],
  ["reads_transaction_by_version", () => get("/v1/transactions/by_version/2")],
  ["reads_transaction_by_version_bcs", () => get("/v1/transactions/by_version/3", "application/x-bcs")],
  ["reads_transaction_not_found", () => get("/v1/transactions/by_version/100")],
  ["reads_block_by_height", () => get("/v1/blocks/by_height/1")],
  ["reads_block_with_transactions", () => get("/v1/blocks/by_version/5?with_transactions=true")],
  ["reads_block_bcs", () => get("/v1/blocks/by_height/2", "application/x-bcs")],
  ["reads_block_not_found", () => get("/v1/blocks/by_height/100")],
  ["reads_table_item", () => post(`/v1/tables/${hex(TABLE)}/item`, { key_type: "u64", value_type: "u64", key: "5" })],
  [
    "reads_table_item_not_found",
    () => post(`/v1/tables/${hex(TABLE)}/item`, { key_type: "u64", value_type: "u64", key: "6" })
  ],
  ["reads_table_raw_item", () => post(`/v1/tables/${hex(TABLE)}/raw_item`, { key: hex(u64(5n)) }, "application/x-bcs")],
  ["reads_table_raw_item_json", () => post(`/v1/tables/${hex(TABLE)}/raw_item`, { key: hex(u64(5n)) })]
]

describe("read endpoint goldens", () => {
  for (const [name, run] of cases) it(name, async () => expectGolden(name, await run()))
})
