import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MovenodeApiError, MovenodeClient } from "../../src/http/MovenodeClient.js"
import { startServer } from "./serverHarness.js"
import { makeTestNode, U64_MAX } from "./TestNode.js"

let server: Awaited<ReturnType<typeof startServer>>
beforeAll(async () => {
  server = await startServer(makeTestNode())
})
afterAll(() => server.close())

const run = <A, E>(f: (c: MovenodeClient["Service"]) => Effect.Effect<A, E>) =>
  Effect.runPromise(
    Effect.gen(function* () {
      return yield* f(yield* MovenodeClient)
    }).pipe(Effect.provide(MovenodeClient.layer(server.url)))
  )

describe("typed client against the in-process server", () => {
  it("reads the ledger info and health", async () => {
    const info = await run((c) => c.general.ledgerInfo())
    expect(info.chain_id).toBe(4)
    expect(info.ledger_version).toBe("1000")
    expect(await run((c) => c.general.healthy())).toEqual({ message: "movenode:ok" })
  })
  it("reads a balance above 2^53 exactly", async () => {
    const balance = await run((c) =>
      c.accounts.balance({ params: { address: "0x1", asset_type: "0x1::coin::Foo<0x1::a::B>" }, query: {} })
    )
    expect(balance).toBe(U64_MAX)
  })
  it("reads a module, summaries and the gas estimate", async () => {
    const m = await run((c) => c.accounts.module({ params: { address: "0x1", module_name: "guid" }, query: {} }))
    expect(m.abi?.exposed_functions[0]?.name).toBe("create")
    const s = await run((c) => c.accounts.transactionSummaries({ params: { address: "0x1" }, query: { limit: "2" } }))
    expect(s.map((x) => x.version)).toEqual(["101", "205"])
    const g = await run((c) => c.transactions.estimateGasPrice())
    expect(g).toEqual({ deprioritized_gas_estimate: 100, gas_estimate: 100, prioritized_gas_estimate: 150 })
  })
  it("posts a view and an encode_submission", async () => {
    const v = await run((c) =>
      c.view.view({ payload: { function: "0x1::coin::balance", type_arguments: [], arguments: ["0x1"] }, query: {} })
    )
    expect(v).toEqual(["100", 8])
    const e = await run((c) =>
      c.transactions.encodeSubmission({
        payload: {
          sender: "0x1",
          sequence_number: "0",
          max_gas_amount: "1",
          gas_unit_price: "1",
          expiration_timestamp_secs: "1",
          payload: { type: "entry_function_payload" }
        }
      })
    )
    expect(e).toBe("0x010203")
  })
  it("takes no query object when every query parameter is optional (nor a request when nothing is needed)", async () => {
    const balance = await run((c) => c.accounts.balance({ params: { address: "0x1", asset_type: "0xa" } }))
    expect(balance).toBe(U64_MAX)
    const m = await run((c) => c.accounts.module({ params: { address: "0x1", module_name: "guid" } }))
    expect(m.abi?.name).toBe("guid")
    const s = await run((c) => c.accounts.transactionSummaries({ params: { address: "0x1" } }))
    expect(s.length).toBeGreaterThan(0)
    const v = await run((c) =>
      c.view.view({ payload: { function: "0x1::coin::balance", type_arguments: [], arguments: ["0x1"] } })
    )
    expect(v).toEqual(["100", 8])
    expect((await run((c) => c.general.ledgerInfo())).chain_id).toBe(4)
  })
  it("fails with the HTTP status and the error body", async () => {
    const err = await run((c) => Effect.flip(c.accounts.module({ params: { address: "0x1", module_name: "nope" } })))
    expect(err).toBeInstanceOf(MovenodeApiError)
    expect(err).toMatchObject({
      _tag: "MovenodeApiError",
      status: 404,
      error_code: "module_not_found",
      vm_error_code: null
    })
    expect(JSON.parse((err as MovenodeApiError).body)).toMatchObject({ error_code: "module_not_found" })
    const pruned = await run((c) =>
      Effect.flip(c.accounts.balance({ params: { address: "0x1", asset_type: "0xa" }, query: { ledger_version: "1" } }))
    )
    expect(pruned).toMatchObject({ status: 410, error_code: "version_pruned" })
  })
  it("decodes error bodies as ErrorBody", async () => {
    const err = await run((c) =>
      Effect.flip(c.accounts.module({ params: { address: "0x1", module_name: "nope" }, query: {} }))
    )
    expect(err).toMatchObject({ error_code: "module_not_found", vm_error_code: null })
    const pruned = await run((c) =>
      Effect.flip(c.accounts.balance({ params: { address: "0x1", asset_type: "0xa" }, query: { ledger_version: "1" } }))
    )
    expect(pruned).toMatchObject({ error_code: "version_pruned" })
  })
})
