import { Effect, Layer, ManagedRuntime } from "effect"
import { test } from "vitest"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { Ledger } from "../../src/ledger/Ledger.js"
import { Balances } from "../../src/node/Balances.js"
import { GasEstimator } from "../../src/node/GasEstimator.js"
import { readLedgerInfo } from "../../src/node/LedgerVersion.js"
import { moduleAbiJsonOf } from "../../src/node/moduleAbiJsonOf.js"
import { Modules } from "../../src/node/Modules.js"
import { block, commitAll, ONE, ROOT, servicesLayer, userTransactions } from "./fixtures.js"

// Run: npx vitest bench --run test/node/node.bench.ts
// The node services' hot paths over the in-memory ledger at devnet genesis plus 130 full blocks.

const runtime = ManagedRuntime.make(servicesLayer())
await runtime.runPromise(
  commitAll(Array.from({ length: 130 }, (_, i) => block(1n, BigInt(i), userTransactions(250, 100n + BigInt(i)))))
)

const coinModule = Effect.gen(function* () {
  return yield* (yield* Modules).module(ONE, "coin", undefined)
})
const coinBytes = runtime.runSync(coinModule).value.bytecode

const balanceOf = (address: Uint8Array, asset: Parameters<Balances["Service"]["balance"]>[1]) =>
  Effect.gen(function* () {
    return yield* (yield* Balances).balance(address, asset, undefined)
  })
const rootApt = balanceOf(ROOT, { _tag: "Coin", structTag: "0x1::aptos_coin::AptosCoin" })
const nobodyFa = balanceOf(addressFromNumber(0xdead), { _tag: "FungibleAsset", metadata: addressFromNumber(0xa) })

const estimate = Effect.gen(function* () {
  return yield* (yield* GasEstimator).estimate(yield* readLedgerInfo(yield* Ledger))
})
const coldEstimate = estimate.pipe(Effect.provide(Layer.fresh(GasEstimator.layer)))

test("module endpoint: 0x1::coin", async ({ bench }) => {
  await bench.compare(
    bench("answer with the ABI cached per stored version", () => void runtime.runSync(coinModule)),
    bench("ABI computed (deserialize + ABI JSON)", () => void moduleAbiJsonOf(coinBytes)),
    { time: 1_500 }
  )
})

test("balance", async ({ bench }) => {
  await bench.compare(
    bench("root APT by coin type (CoinStore + primary store)", () => void runtime.runSync(rootApt)),
    bench("unknown account by FA address", () => void runtime.runSync(nobodyFa)),
    { time: 1_500 }
  )
})

test("gas estimate", async ({ bench }) => {
  await bench.compare(
    bench("cached (within 500 ms)", () => void runtime.runSync(estimate)),
    bench(
      "cold: 120 blocks of 250 user transactions walked",
      async () => void (await runtime.runPromise(coldEstimate))
    ),
    { time: 3_000 }
  )
})
