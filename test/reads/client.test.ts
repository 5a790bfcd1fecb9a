/**
 * The read endpoints through the typed client derived from the Api (`MovenodeClient`): every read
 * method decodes the server's answer with the schema the OpenAPI document publishes, fails with the
 * status and error body otherwise, and each request is counted in the Prometheus metrics under its
 * `group.endpoint` route.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MovenodeApiError, MovenodeClient } from "../../src/http/MovenodeClient.js"
import { type ReadsNode, startReadsNode } from "./readsNode.js"
import { commitSyntheticBlocks, hex, TABLE, u64 } from "./syntheticBlocks.js"

let n: ReadsNode
beforeAll(async () => {
  n = await startReadsNode("devnet", { metrics: true })
  await commitSyntheticBlocks(n.handle.service)
}, 60_000)
afterAll(() => n.close())

const run = <A, E>(f: (c: MovenodeClient["Service"]) => Effect.Effect<A, E>) =>
  Effect.runPromise(
    Effect.gen(function* () {
      return yield* f(yield* MovenodeClient)
    }).pipe(Effect.provide(MovenodeClient.layer(n.origin)))
  )

const text = async (path: string) => JSON.parse(await (await n.get(path)).text()) as unknown

describe("read endpoints through the typed client", () => {
  it("accounts: the account, its resources (with a cursor), one resource, its modules", async () => {
    expect(await run((c) => c.accountState.account({ params: { address: "0xcafe" } }))).toEqual(
      await text("/v1/accounts/0xcafe")
    )
    const page = await run((c) => c.accountState.resources({ params: { address: "0x1" }, query: { limit: "3" } }))
    expect(page.length).toBe(3)
    expect(page).toEqual(await text("/v1/accounts/0x1/resources?limit=3"))
    const chainId = await run((c) =>
      c.accountState.resource({ params: { address: "0x1", resource_type: "0x1::chain_id::ChainId" } })
    )
    expect(chainId).toEqual(await text("/v1/accounts/0x1/resource/0x1::chain_id::ChainId"))
    expect(chainId.type).toBe("0x1::chain_id::ChainId")
    const modules = await run((c) => c.accountState.modules({ params: { address: "0x1" }, query: { limit: "2" } }))
    expect(modules.map((m) => m.abi?.name)).toEqual(
      ((await text("/v1/accounts/0x1/modules?limit=2")) as any[]).map((m) => m.abi.name)
    )
  })

  it("transactions: a page, by version, an account's, events by creation number and by handle", async () => {
    const list = await run((c) => c.transactionReads.list({ query: { start: "0", limit: "7" } }))
    expect(list.map((t) => t.version)).toEqual(["0", "1", "2", "3", "4", "5", "6"])
    expect(list).toEqual(await text("/v1/transactions?start=0&limit=7"))
    const t2 = await run((c) => c.transactionReads.byVersion({ params: { txn_version: "2" } }))
    expect(t2).toEqual(list[2])
    expect(t2).toMatchObject({ type: "user_transaction", sender: "0xcafe", success: true })
    const mine = await run((c) => c.accountState.transactions({ params: { address: "0xcafe" } }))
    expect(mine.map((t) => t.version)).toEqual(["2", "5"])
    const byKey = await run((c) =>
      c.accountState.eventsByCreationNumber({ params: { address: "0xcafe", creation_number: "0" } })
    )
    expect(byKey.map((e) => [e.version, e.type])).toEqual([["2", "0x1::account::CoinRegisterEvent"]])
    const byHandle = await run((c) =>
      c.accountState.eventsByHandle({
        params: { address: "0xcafe", event_handle: "0x1::account::Account", field_name: "coin_register_events" }
      })
    )
    expect(byHandle).toEqual(byKey)
  })

  it("blocks by height and by version, with their transactions", async () => {
    const b1 = await run((c) =>
      c.blocks.byHeight({ params: { block_height: "1" }, query: { with_transactions: "true" } })
    )
    expect(b1).toMatchObject({ block_height: "1", first_version: "1", last_version: "3" })
    expect(b1.transactions?.length).toBe(3)
    expect(b1).toEqual(await text("/v1/blocks/by_height/1?with_transactions=true"))
    const b2 = await run((c) => c.blocks.byVersion({ params: { version: "5" } }))
    expect(b2).toMatchObject({ block_height: "2", first_version: "4", last_version: "6", transactions: null })
  })

  it("table items by JSON key and by raw key (BCS bytes)", async () => {
    const item = await run((c) =>
      c.tables.item({ params: { table_handle: hex(TABLE) }, payload: { key_type: "u64", value_type: "u64", key: "5" } })
    )
    expect(item).toBe("77")
    const raw = await run((c) =>
      c.tables.rawItem({
        params: { table_handle: hex(TABLE) },
        headers: { accept: "application/x-bcs" },
        payload: { key: hex(u64(5n)) }
      })
    )
    expect(new Uint8Array(raw)).toEqual(u64(77n))
  })

  it("fails with the status and the error body", async () => {
    const missing = await run((c) =>
      Effect.flip(
        c.accountState.resource({
          params: { address: "0xcafe", resource_type: "0x1::coin::CoinInfo<0x1::aptos_coin::AptosCoin>" }
        })
      )
    )
    expect(missing).toBeInstanceOf(MovenodeApiError)
    expect(missing).toMatchObject({ status: 404, error_code: "resource_not_found" })
    const ahead = await run((c) => Effect.flip(c.transactionReads.byVersion({ params: { txn_version: "7" } })))
    expect(ahead).toMatchObject({ status: 404, error_code: "transaction_not_found" })
    const noBlock = await run((c) => Effect.flip(c.blocks.byHeight({ params: { block_height: "3" } })))
    expect(noBlock).toMatchObject({ status: 404, error_code: "block_not_found" })
  })

  it("counts every read in the metrics under its route", async () => {
    const metrics = await (await fetch(`${n.metricsOrigin}/metrics`)).text()
    for (const route of [
      "accountState.account",
      "accountState.resources",
      "accountState.resource",
      "accountState.modules",
      "accountState.transactions",
      "accountState.eventsByCreationNumber",
      "accountState.eventsByHandle",
      "transactionReads.list",
      "transactionReads.byVersion",
      "blocks.byHeight",
      "blocks.byVersion",
      "tables.item",
      "tables.rawItem"
    ])
      expect(metrics, route).toMatch(
        new RegExp(`movenode_http_requests_total\\{route="${route.replace(".", "\\.")}",status="200"\\} [1-9]`)
      )
    expect(metrics).toMatch(/movenode_http_requests_total\{route="accountState\.resource",status="404"\} 1/)
    expect(metrics).toMatch(/movenode_http_requests_total\{route="blocks\.byHeight",status="404"\} 1/)
  })
})
