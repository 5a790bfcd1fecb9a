import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { LedgerMemory } from "../../src/ledger/index.js"
import type { Ledger } from "../../src/ledger/Ledger.js"
import { Node } from "../../src/node/Node.js"
import { defaultNodeConfig, makeNodeConfig, validateNodeConfig } from "../../src/node/NodeConfig.js"
import { devnetGenesis, ONE, ROOT } from "./fixtures.js"

// Node.layer needs the Ledger only, and cannot fail on its own.
const typed: Layer.Layer<Node, never, Ledger> = Node.layer
const nodeLayer = typed.pipe(Layer.provide(LedgerMemory.layer({ genesis: devnetGenesis })))

describe("Node.layer", () => {
  it.effect("answers every question over the ledger, each with the ledger info", () =>
    Effect.gen(function* () {
      const node = yield* Node
      const info = yield* node.ledgerInfo
      assert.strictEqual(info.chainId, 243)
      assert.strictEqual(info.ledgerVersion, 0n)
      const balance = yield* node.balance(ROOT, { _tag: "Coin", structTag: "0x1::aptos_coin::AptosCoin" }, undefined)
      assert.strictEqual(balance.value, 18446744073709551615n)
      assert.deepStrictEqual(balance.ledger, info)
      const gas = yield* node.estimateGasPrice
      assert.deepStrictEqual(gas.value, { low: 100n, market: 100n, aggressive: 150n })
      assert.deepStrictEqual(gas.ledger, info)
      const summaries = yield* node.transactionSummaries(ROOT, {})
      assert.deepStrictEqual(summaries.value, { summaries: [], cursor: undefined })
      const module = yield* node.module(ONE, "aptos_account", undefined)
      assert.strictEqual(JSON.parse(module.value.abiJson).name, "aptos_account")
    }).pipe(Effect.provide(nodeLayer))
  )

  it.effect("runs views on the Move VM and encodes transactions by the on-chain ABI", () =>
    Effect.gen(function* () {
      const node = yield* Node
      const view = yield* node.view(
        {
          _tag: "Json",
          body: {
            function: "0x1::coin::balance",
            type_arguments: ["0x1::aptos_coin::AptosCoin"],
            arguments: ["0xa550c18"]
          }
        },
        undefined
      )
      assert.deepStrictEqual(view.value.json, ["18446744073709551615"])
      assert.isTrue(view.value.gasUsed > 0n)
      assert.strictEqual(view.ledger.chainId, 243)
      const encoded = yield* node.encodeSubmission({
        sender: "0xa550c18",
        sequence_number: "0",
        max_gas_amount: "2000",
        gas_unit_price: "100",
        expiration_timestamp_secs: "1700000000",
        payload: {
          type: "entry_function_payload",
          function: "0x1::aptos_account::transfer",
          type_arguments: [],
          arguments: ["0x1234", "100"]
        }
      })
      // sha3_256("APTOS::RawTransaction") prefix, then the sender's 32 bytes.
      assert.strictEqual(encoded.value.length > 32 + 32 + 8, true)
      assert.strictEqual(encoded.value[encoded.value.length - 1], 243)
      const notView = yield* Effect.flip(
        node.view(
          { _tag: "Json", body: { function: "0x1::aptos_account::transfer", type_arguments: [], arguments: [] } },
          undefined
        )
      )
      assert.strictEqual(notView.status, 400)
      assert.strictEqual(notView.ledger?.chainId, 243)
    }).pipe(Effect.provide(nodeLayer))
  )

  it.effect("a ledger with nothing committed is a 500 without ledger info", () =>
    Effect.gen(function* () {
      const node = yield* Node
      const error = yield* Effect.flip(
        node.balance(addressFromNumber(1), { _tag: "FungibleAsset", metadata: ONE }, undefined)
      )
      assert.strictEqual(error.status, 500)
      assert.isUndefined(error.ledger)
    }).pipe(Effect.provide(Node.layer.pipe(Layer.provide(LedgerMemory.layer({ chainId: 4 })))))
  )
})

describe("NodeConfig", () => {
  it("has the reference's defaults", () => {
    assert.strictEqual(defaultNodeConfig.maxPageSize, 100)
    assert.strictEqual(defaultNodeConfig.viewGasBudget, 2_000_000n)
    const g = defaultNodeConfig.gasEstimation
    assert.deepStrictEqual(
      [
        g.enabled,
        g.fullBlockTxns,
        g.lowBlockHistory,
        g.marketBlockHistory,
        g.aggressiveBlockHistory,
        g.cacheExpirationMs
      ],
      [true, 250, 10, 30, 120, 500]
    )
    assert.isUndefined(g.staticOverride)
    assert.deepStrictEqual(g.buckets, [0n, 150n, 300n, 500n, 1000n, 3000n, 5000n, 10000n, 100000n, 1000000n])
    assert.deepStrictEqual(validateNodeConfig(defaultNodeConfig), [])
  })

  it("rejects histories the reference's sanitizer rejects", () => {
    assert.isNotEmpty(validateNodeConfig(makeNodeConfig({ gasEstimation: { lowBlockHistory: 0 } })))
    assert.isNotEmpty(validateNodeConfig(makeNodeConfig({ gasEstimation: { marketBlockHistory: 200 } })))
    assert.isNotEmpty(validateNodeConfig(makeNodeConfig({ maxPageSize: 0 })))
    assert.deepStrictEqual(validateNodeConfig(makeNodeConfig({ gasEstimation: { aggressiveBlockHistory: 30 } })), [])
  })
})
