/**
 * Per-call VM time of `0x1::coin::balance<AptosCoin>(0xa550c18)` at devnet genesis, warm caches
 * (modules loaded and code compiled by the first call). For scale: the reference executes an APT
 * transfer in ~64 µs on one thread.
 */
import { test } from "vitest"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import type { TypeTag } from "../../../src/domain/TypeTag.js"
import { MoveVm } from "../../../src/move/vm/MoveVm.js"
import { stateViewFromReader } from "../../../src/move/vm/StateView.js"
import { genesisState } from "./genesisState.js"

const ONE = addressFromNumber(1)
const FAUCET = addressFromNumber(0xa550c18)
const aptosCoin: TypeTag = {
  _tag: "struct",
  struct: { address: ONE, module: "aptos_coin", name: "AptosCoin", typeArgs: [] }
}
const { view, reader } = genesisState("devnet")
/** As the node runs it: the view names its snapshot (ledger version), so modules are not re-read. */
const snapshotView = stateViewFromReader(reader, 0n)
const vm = new MoveVm()

const balance = { module: { address: ONE, name: "coin" }, function: "balance", tyArgs: [aptosCoin], args: [FAUCET] }
const chainId = { module: { address: ONE, name: "chain_id" }, function: "get", tyArgs: [], args: [] }
if (vm.call(view, balance, { maxGas: 2_000_000n, view: true })._tag !== "Success")
  throw new Error("warm-up call failed")

// Run: npx vitest bench --run test/move/vm/view.bench.ts
test("Move VM view calls (warm caches)", async ({ bench }) => {
  await bench.compare(
    bench("coin::balance<AptosCoin>, metered, snapshot view", () => {
      vm.call(snapshotView, balance, { maxGas: 2_000_000n, view: true })
    }),
    bench("coin::balance<AptosCoin>, metered", () => {
      vm.call(view, balance, { maxGas: 2_000_000n, view: true })
    }),
    bench("coin::balance<AptosCoin>, unmetered", () => {
      vm.call(view, balance, { view: true })
    }),
    bench("chain_id::get, metered", () => {
      vm.call(view, chainId, { maxGas: 2_000_000n, view: true })
    }),
    { time: 1_500 }
  )
})
