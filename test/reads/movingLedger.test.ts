/**
 * The read endpoints over a ledger that moves: synthetic blocks committed through the ledger service
 * on top of the devnet genesis (block metadata, a user transaction writing an account, a table item
 * and events, a block epilogue), read back every way, with `ledger_version`, 404 and 410 answers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect } from "effect"
import { type ReadsNode, startReadsNode } from "./readsNode.js"
import { CAFE, TABLE, commitSyntheticBlocks, hex, metadata, system, u64 } from "./syntheticBlocks.js"

let n: ReadsNode
beforeAll(async () => {
  n = await startReadsNode("devnet")
  await commitSyntheticBlocks(n.handle.service)
}, 60_000)
afterAll(() => n.close())

const getJson = async (path: string) => {
  const r = await n.get(path)
  return { status: r.status, body: (await r.json()) as any, headers: r.headers }
}

describe("a moving ledger", () => {
  it("serves the new transactions identically by version, in lists, in blocks and by hash", async () => {
    const texts: string[] = []
    for (let v = 0; v <= 6; v++) texts.push(await (await n.get(`/v1/transactions/by_version/${v}`)).text())
    expect(await (await n.get("/v1/transactions?start=0&limit=100")).text()).toBe(`[${texts.join(",")}]`)
    // Without start: the latest page.
    expect(await (await n.get("/v1/transactions?limit=2")).text()).toBe(`[${texts[5]},${texts[6]}]`)
    const block1 = await n.get("/v1/blocks/by_height/1?with_transactions=true")
    expect(await block1.text()).toBe(
      `{"block_height":"1","block_hash":"${hex(new Uint8Array(32).fill(1))}","block_timestamp":"1000000","first_version":"1","last_version":"3","transactions":[${texts.slice(1, 4).join(",")}]}`
    )
    expect((await getJson("/v1/blocks/by_version/1")).body.block_height).toBe("1")
    expect((await getJson("/v1/blocks/by_version/5")).body).toMatchObject({
      block_height: "2",
      first_version: "4",
      last_version: "6",
      transactions: null
    })
    const userTxn = JSON.parse(texts[2]!)
    expect(userTxn).toMatchObject({
      type: "user_transaction",
      version: "2",
      sender: "0xcafe",
      sequence_number: "0",
      timestamp: "1000000",
      payload: { function: "0x1::aptos_account::transfer", arguments: ["0xb0b", "10"] },
      events: [
        {
          guid: { creation_number: "0", account_address: "0xcafe" },
          sequence_number: "0",
          type: "0x1::account::CoinRegisterEvent"
        },
        {
          guid: { creation_number: "0", account_address: "0x0" },
          sequence_number: "0",
          type: "0x1::transaction_fee::FeeStatement"
        }
      ]
    })
    const byHash = await Effect.runPromise(n.node.reads.transactions.byHash(Buffer.from(userTxn.hash.slice(2), "hex")))
    expect(byHash.value.json).toBe(texts[2])
    const failed = JSON.parse(texts[5]!)
    expect([failed.success, failed.vm_status]).toEqual([false, "Move abort in 0x1::coin: 0x10006"])
    expect(JSON.parse(texts[3]!).type).toBe("block_epilogue_transaction")
    expect(JSON.parse(texts[1]!).type).toBe("block_metadata_transaction")
  })

  it("an account's transactions by sequence number; the account and its events at versions", async () => {
    const all = (await getJson("/v1/accounts/0xcafe/transactions")).body as any[]
    expect(all.map((t) => t.version)).toEqual(["2", "5"])
    expect(((await getJson("/v1/accounts/0xcafe/transactions?start=1")).body as any[]).map((t) => t.version)).toEqual([
      "5"
    ])
    expect(((await getJson("/v1/accounts/0xcafe/transactions?limit=1")).body as any[]).map((t) => t.version)).toEqual([
      "5"
    ])
    expect((await getJson("/v1/accounts/0xcafe")).body).toEqual({ sequence_number: "2", authentication_key: hex(CAFE) })
    expect((await getJson("/v1/accounts/0xcafe?ledger_version=2")).body.sequence_number).toBe("1")
    // Before version 2 the account did not exist: the devnet framework's flag 91 gives the stateless default.
    expect((await getJson("/v1/accounts/0xcafe?ledger_version=1")).body).toEqual({
      sequence_number: "0",
      authentication_key: hex(CAFE)
    })
    const byKey = await getJson("/v1/accounts/0xcafe/events/0")
    expect(byKey.body).toEqual([
      {
        version: "2",
        guid: { creation_number: "0", account_address: "0xcafe" },
        sequence_number: "0",
        type: "0x1::account::CoinRegisterEvent",
        data: {
          type_info: {
            account_address: "0x1",
            module_name: "0x6170746f735f636f696e",
            struct_name: "0x4170746f73436f696e"
          }
        }
      }
    ])
    expect((await getJson("/v1/accounts/0xcafe/events/0x1::account::Account/coin_register_events")).body).toEqual(
      byKey.body
    )
    expect((await getJson("/v1/accounts/0xcafe/events/0x1::account::Account/nope")).body.error_code).toBe(
      "struct_field_not_found"
    )
    expect((await getJson("/v1/accounts/0xcafe/events/0x1::account::Account/sequence_number")).status).toBe(400)
  })

  it("table items by JSON key and by raw key", async () => {
    const post = (path: string, body: unknown, accept = "application/json") =>
      n.get(path, {
        method: "POST",
        headers: { "content-type": "application/json", accept },
        body: JSON.stringify(body)
      })
    const item = await post(`/v1/tables/${hex(TABLE)}/item`, { key_type: "u64", value_type: "u64", key: "5" })
    expect([item.status, await item.json()]).toEqual([200, "77"])
    const missing = await post(`/v1/tables/${hex(TABLE)}/item`, { key_type: "u64", value_type: "u64", key: "6" })
    expect([missing.status, ((await missing.json()) as any).error_code]).toEqual([404, "table_item_not_found"])
    const raw = await post(`/v1/tables/${hex(TABLE)}/raw_item`, { key: hex(u64(5n)) }, "application/x-bcs")
    expect([raw.status, new Uint8Array(await raw.arrayBuffer())]).toEqual([200, u64(77n)])
    expect((await post(`/v1/tables/${hex(TABLE)}/raw_item`, { key: hex(u64(5n)) })).status).toBe(403)
    // At version 1 the item did not exist yet.
    const before = await post(`/v1/tables/${hex(TABLE)}/item?ledger_version=1`, {
      key_type: "u64",
      value_type: "u64",
      key: "5"
    })
    expect(before.status).toBe(404)
  })

  it("ledger_version above the latest is 404 version_not_found everywhere it is taken", async () => {
    for (const path of [
      "/v1/accounts/0xcafe?ledger_version=99",
      "/v1/accounts/0xcafe/resources?ledger_version=99",
      "/v1/accounts/0xcafe/modules?ledger_version=99",
      "/v1/accounts/0x1/resource/0x1::chain_id::ChainId?ledger_version=99"
    ]) {
      const { status, body, headers } = await getJson(path)
      expect([status, body.error_code], path).toEqual([404, "version_not_found"])
      expect(headers.get("x-aptos-ledger-version")).toBe("6")
    }
    expect((await getJson("/v1/transactions/by_version/7")).body.error_code).toBe("transaction_not_found")
    expect((await getJson("/v1/blocks/by_height/3")).body.error_code).toBe("block_not_found")
    expect((await getJson("/v1/blocks/by_version/7")).body.error_code).toBe("version_not_found")
    expect((await getJson("/v1/transactions?start=7")).status).toBe(400)
    expect((await getJson("/v1/transactions?limit=0")).status).toBe(400)
    // Above the maximum page size is clamped.
    expect(((await getJson("/v1/transactions?start=0&limit=65535")).body as any[]).length).toBe(7)
    expect(
      (await getJson("/v1/accounts/0xcafe/resource/0x1::coin::CoinInfo<0x1::aptos_coin::AptosCoin>")).body.error_code
    ).toBe("resource_not_found")
  })
})

describe("a pruned ledger", () => {
  it("answers 410 below the window: transactions, blocks, state", async () => {
    const p = await startReadsNode("devnet", { pruneWindow: 2n })
    try {
      for (let round = 1n; round <= 3n; round++)
        await Effect.runPromise(
          p.handle.service.commitBlock({
            epoch: 1n,
            timestampUsec: round,
            transactions: [
              system({ _tag: "BlockMetadata", metadata: metadata(round, round) }),
              system({ _tag: "StateCheckpoint", hash: new Uint8Array(32) })
            ]
          })
        )
      const get = async (path: string) => {
        const r = await p.get(path)
        return [r.status, ((await r.json()) as any).error_code]
      }
      expect(await get("/v1/transactions/by_version/0")).toEqual([410, "version_pruned"])
      expect(await get("/v1/blocks/by_height/0")).toEqual([410, "block_pruned"])
      expect(await get("/v1/blocks/by_version/1")).toEqual([410, "version_pruned"])
      expect(await get("/v1/accounts/0x1?ledger_version=0")).toEqual([410, "version_pruned"])
      expect(await get("/v1/accounts/0x1/resources?ledger_version=0")).toEqual([410, "version_pruned"])
      expect(await get("/v1/transactions?start=0")).toEqual([410, "version_pruned"])
      expect((await p.get("/v1/transactions")).status).toBe(200)
    } finally {
      await p.close()
    }
  })
})
