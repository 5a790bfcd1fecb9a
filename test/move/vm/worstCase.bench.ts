/**
 * How long one view can hold the event loop: runaway code under the node's default view budget
 * (`viewGasBudget` 2,000,000 units) and the view deadline (`DEFAULT_VIEW_DEADLINE_MS`), stopped by
 * gas, the memory quota, the branch limit or the deadline, whichever comes first; and, for
 * comparison, the same without a deadline (gas, memory and branch limits only).
 * Run: npx vitest bench --run test/move/vm/worstCase.bench.ts
 */
import { test } from "vitest"
import { BcsWriter } from "../../../src/bcs/index.js"
import { DEFAULT_VIEW_DEADLINE_MS, MoveVm } from "../../../src/move/vm/MoveVm.js"
import { defaultNodeConfig } from "../../../src/node/NodeConfig.js"
import { genesisState } from "./genesisState.js"
import { TEST_ADDRESS, withTestModule } from "./testModule.js"

const view = withTestModule(genesisState("devnet").view)
const vm = new MoveVm()
const budget = defaultNodeConfig.viewGasBudget
const run = (fn: string, args: Uint8Array[], deadline: number | "none" = DEFAULT_VIEW_DEADLINE_MS) =>
  vm.call(
    view,
    { module: { address: TEST_ADDRESS, name: "t" }, function: fn, tyArgs: [], args },
    { maxGas: budget, deadlineMs: deadline === "none" ? undefined : deadline }
  )
const growArg = () => [new BcsWriter().u64(1n << 40n).toBytes()]
for (const deadline of [DEFAULT_VIEW_DEADLINE_MS, "none" as const]) {
  for (const [fn, args] of [
    ["spin", []],
    ["grow", growArg()]
  ] as const) {
    const o = run(fn, [...args], deadline)
    const end = o._tag === "Error" ? `${o.error.status} (${o.error.detail})` : o._tag
    console.log(`${fn} under ${budget} units, deadline ${deadline}: ${end}, gas used ${o.gasUsed}`)
  }
}

test("runaway views under the default view budget", async ({ bench }) => {
  await bench.compare(
    bench("endless loop (spin)", () => {
      run("spin", [])
    }),
    bench("endless vector growth (grow)", () => {
      run("grow", growArg())
    }),
    bench("spin, no deadline", () => {
      run("spin", [], "none")
    }),
    bench("grow, no deadline (memory quota)", () => {
      run("grow", growArg(), "none")
    }),
    { time: 3_000, iterations: 3 }
  )
})
