/**
 * The TypeScript SDK's account, resource, module, transaction, block and table calls against an
 * in-process node (devnet genesis plus two synthetic blocks): an independent client parses what the
 * read endpoints serve, follows their cursors, and gets the values the ledger holds.
 */
import { Aptos, AptosConfig, Network } from "@aptos-labs/ts-sdk"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ReadsNode, startReadsNode } from "./readsNode.js"
import { CAFE, TABLE, commitSyntheticBlocks, hex } from "./syntheticBlocks.js"

let n: ReadsNode
let aptos: Aptos
beforeAll(async () => {
  n = await startReadsNode("devnet")
  await commitSyntheticBlocks(n.handle.service)
  aptos = new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: `${n.origin}/v1` }))
}, 60_000)
afterAll(() => n.close())

describe("the TypeScript SDK against the read endpoints", () => {
  it("getAccountInfo: a stored account, and 0x1's stateless default (auth key 0x…01)", async () => {
    expect(await aptos.getAccountInfo({ accountAddress: hex(CAFE) })).toEqual({
      sequence_number: "2",
      authentication_key: hex(CAFE)
    })
    const one = await aptos.getAccountInfo({ accountAddress: "0x1" })
    expect(one).toEqual({ sequence_number: "0", authentication_key: `0x${"0".repeat(63)}1` })
  })

  it("getAccountResources follows the cursor; getAccountResource reads one, a group member too", async () => {
    const all = await aptos.getAccountResources({ accountAddress: "0x1" })
    const direct = (await (await n.get("/v1/accounts/0x1/resources")).json()) as Array<{ type: string }>
    expect(all.map((r) => r.type)).toEqual(direct.map((r) => r.type))
    const paged = await aptos.getAccountResources({ accountAddress: "0x1", options: { limit: 7 } })
    expect(paged.length).toBeLessThanOrEqual(7)
    const page = await aptos.getAccountResourcesPage({ accountAddress: "0x1", options: { limit: 3 } })
    expect(page.resources.length).toBe(3)
    expect(page.cursor).toBeDefined()
    const chainId = await aptos.getAccountResource<{ id: number }>({
      accountAddress: "0x1",
      resourceType: "0x1::chain_id::ChainId"
    })
    expect(chainId.id).toBe(243)
    const core = await aptos.getAccountResource({ accountAddress: "0xa", resourceType: "0x1::object::ObjectCore" })
    expect(core).toHaveProperty("owner")
  })

  it("getAccountModules and getAccountModule", async () => {
    const modules = await aptos.getAccountModules({ accountAddress: "0x1" })
    expect(modules.length).toBeGreaterThan(100)
    expect(modules.every((m) => m.abi?.address === "0x1")).toBe(true)
    const coin = await aptos.getAccountModule({ accountAddress: "0x1", moduleName: "coin" })
    expect(modules.find((m) => m.abi?.name === "coin")).toEqual(coin)
    const page = await aptos.getAccountModulesPage({ accountAddress: "0x1", options: { limit: 10 } })
    expect(page.modules.length).toBe(10)
  })

  it("getTransactions, getTransactionByVersion and getAccountTransactions agree", async () => {
    const listed = await aptos.getTransactions({ options: { offset: 1, limit: 6 } })
    expect(listed.map((t) => t.type)).toEqual([
      "block_metadata_transaction",
      "user_transaction",
      "block_epilogue_transaction",
      "block_metadata_transaction",
      "user_transaction",
      "block_epilogue_transaction"
    ])
    for (const t of listed)
      expect(
        await aptos.getTransactionByVersion({ ledgerVersion: Number((t as { version: string }).version) })
      ).toEqual(t)
    const mine = await aptos.getAccountTransactions({ accountAddress: hex(CAFE) })
    expect(mine).toEqual([listed[1], listed[4]])
    const genesis = await aptos.getTransactionByVersion({ ledgerVersion: 0 })
    expect(genesis.type).toBe("genesis_transaction")
  })

  it("getBlockByHeight and getBlockByVersion, with and without transactions", async () => {
    const block = await aptos.getBlockByHeight({ blockHeight: 1 })
    expect(block).toMatchObject({ block_height: "1", first_version: "1", last_version: "3", transactions: null })
    const withTxns = await aptos.getBlockByVersion({ ledgerVersion: 2, options: { withTransactions: true } })
    expect(withTxns.block_height).toBe("1")
    expect(withTxns.transactions?.map((t) => t.type)).toEqual([
      "block_metadata_transaction",
      "user_transaction",
      "block_epilogue_transaction"
    ])
    const info = await aptos.getLedgerInfo()
    const latest = await aptos.getBlockByVersion({ ledgerVersion: Number(info.ledger_version) })
    expect(latest.block_height).toBe(info.block_height)
    expect((await aptos.getBlockByHeight({ blockHeight: 0 })).last_version).toBe("0")
  })

  it("getTableItem", async () => {
    const value = await aptos.getTableItem<string>({
      handle: hex(TABLE),
      data: { key_type: "u64", value_type: "u64", key: "5" }
    })
    expect(value).toBe("77")
  })
})
