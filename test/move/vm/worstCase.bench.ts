/**
 * How long one view can hold the event loop: runaway code under the node's default view budget
 * (`viewGasBudget` 2,000,000 units), stopped by gas or by the branch limit, whichever comes first.
 * Run: npx vitest bench --run test/move/vm/worstCase.bench.ts
 */
import { test } from "vitest"
import { BcsWriter } from "../../../src/bcs/index.js"
import { MoveVm } from "../../../src/move/vm/MoveVm.js"
import { defaultNodeConfig } from "../../../src/node/NodeConfig.js"
import { genesisState } from "./genesisState.js"
import { TEST_ADDRESS, withTestModule } from "./testModule.js"

const view = withTestModule(genesisState("devnet").view)
const vm = new MoveVm()
const budget = defaultNodeConfig.viewGasBudget
const run = (fn: string, args: Uint8Array[]) =>
  vm.call(view, { module: { address: TEST_ADDRESS, name: "t" }, function: fn, tyArgs: [], args }, { maxGas: budget })
const outcome = run("spin", [])
if (outcome._tag !== "Error") throw new Error("spin should fail")
console.log(`spin under ${budget} units: ${outcome.error.status}, gas used ${outcome.gasUsed}`)
const grow = run("grow", [new BcsWriter().u64(1n << 40n).toBytes()])
console.log(`grow under ${budget} units: ${grow._tag === "Error" ? grow.error.status : grow._tag}`)

test("runaway views under the default view budget", async ({ bench }) => {
  await bench.compare(
    bench("endless loop (spin)", () => {
      run("spin", [])
    }),
    bench("endless vector growth (grow)", () => {
      run("grow", [new BcsWriter().u64(1n << 40n).toBytes()])
    }),
    { time: 3_000, iterations: 3 }
  )
})
