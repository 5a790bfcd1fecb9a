/**
 * The library as a user of the package writes it: everything from the package's entry point
 * (`src/index.ts`), an in-memory node on the devnet genesis served on a free port, and the typed
 * client talking to it. No test helpers beyond reading the genesis file.
 */
import { readFileSync } from "node:fs"
import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { LedgerMemory, MovenodeClient, MovenodeServer, Node } from "../../src/index.js"
import { genesisPath } from "../support/genesis.js"

const genesis = new Uint8Array(readFileSync(genesisPath("devnet")))

/** The node of the index's overview comment. */
const nodeLayer = MovenodeServer.layer({ listen: { host: "127.0.0.1", port: 0 } }).pipe(
  Layer.provide(Node.layer),
  Layer.provide(LedgerMemory.layer({ genesis }))
)

/** Runs `f` with a client of a freshly started node; the node stops when `f` is done. */
const withNode = <A, E>(f: (client: MovenodeClient["Service"], origin: string) => Effect.Effect<A, E>) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const server = yield* MovenodeServer
        const origin = `http://127.0.0.1:${server.address.port}`
        return yield* Effect.provide(
          Effect.gen(function* () {
            return yield* f(yield* MovenodeClient, origin)
          }),
          MovenodeClient.layer(origin)
        )
      }).pipe(Effect.provide(nodeLayer))
    )
  )

describe("movenode as a library: in-memory node + typed client", () => {
  it("answers the contract's questions through the typed client", async () => {
    const out = await withNode((client) =>
      Effect.gen(function* () {
        const info = yield* client.general.ledgerInfo()
        const byCoin = yield* client.accounts.balance({
          params: { address: "0xa550c18", asset_type: "0x1::aptos_coin::AptosCoin" }
        })
        const byMetadata = yield* client.accounts.balance({
          params: { address: "0xa550c18", asset_type: "0xa" }
        })
        const unknown = yield* client.accounts.balance({
          params: { address: "0xdead0001", asset_type: "0xa" }
        })
        const gas = yield* client.transactions.estimateGasPrice()
        return { info, byCoin, byMetadata, unknown, gas }
      })
    )
    expect(out.info).toMatchObject({
      chain_id: 243,
      ledger_version: "0",
      oldest_ledger_version: "0",
      node_role: "full_node"
    })
    expect(out.byCoin).toBe(18446744073709551615n)
    expect(out.byMetadata).toBe(18446744073709551615n)
    expect(out.unknown).toBe(0n)
    expect(out.gas).toEqual({ deprioritized_gas_estimate: 100, gas_estimate: 100, prioritized_gas_estimate: 150 })
  })

  it("surfaces 404 version_not_found and 400 for a malformed address with their statuses and bodies", async () => {
    const out = await withNode((client) =>
      Effect.gen(function* () {
        const tooNew = yield* Effect.flip(
          client.accounts.balance({ params: { address: "0x1", asset_type: "0xa" }, query: { ledger_version: "1" } })
        )
        const malformed = yield* Effect.flip(
          client.accounts.balance({ params: { address: "0xnothex", asset_type: "0xa" } })
        )
        return { tooNew, malformed }
      })
    )
    expect(out.tooNew).toMatchObject({ status: 404, error_code: "version_not_found", vm_error_code: null })
    expect(out.tooNew.message).toBe("Ledger version not found by Ledger version(1)")
    expect(out.malformed).toMatchObject({ status: 400, error_code: "web_framework_error", vm_error_code: null })
  })
})
