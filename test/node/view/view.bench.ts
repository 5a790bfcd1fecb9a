/**
 * The view service's synchronous core, `runView`, for `coin::balance<AptosCoin>(0xa550c18)` from a
 * JSON request to JSON values (argument conversion, VM call, rendering), warm caches, beside the
 * BCS request form. Run: npx vitest bench --run test/node/view/view.bench.ts
 */
import { Result } from "effect"
import { test } from "vitest"
import type { ModuleSource } from "../../../src/move/layout/ModuleSource.js"
import { MoveVm } from "../../../src/move/vm/MoveVm.js"
import { stateViewFromReader } from "../../../src/move/vm/StateView.js"
import { parseBcsViewRequest, parseJsonViewRequest } from "../../../src/node/view/parseViewRequest.js"
import { runView } from "../../../src/node/view/runView.js"
import { genesisState } from "../../move/vm/genesisState.js"

// As `ViewsVmLayer` does: the view names its snapshot (the ledger version).
const { reader } = genesisState("devnet")
const view = stateViewFromReader(reader, 0n)
const vm = new MoveVm()
const modules: ModuleSource = (address, name) => vm.loader.withView(view, () => vm.loader.tryLoad(address, name)?.cm)
const body = {
  function: "0x1::coin::balance",
  type_arguments: ["0x1::aptos_coin::AptosCoin"],
  arguments: ["0xa550c18"]
}
const bcsBody = Uint8Array.from(
  Buffer.from(
    "0000000000000000000000000000000000000000000000000000000000000001" +
      "04636f696e" +
      "0762616c616e6365" +
      "01070000000000000000000000000000000000000000000000000000000000000001" +
      "0a6170746f735f636f696e" +
      "094170746f73436f696e00" +
      "0120000000000000000000000000000000000000000000000000000000000a550c18",
    "hex"
  )
)

const jsonCall = () => {
  const parsed = parseJsonViewRequest(body)
  if (Result.isFailure(parsed)) throw new Error(parsed.failure.message)
  const r = runView(vm, view, modules, parsed.success, 2_000_000n)
  if (Result.isFailure(r)) throw new Error(r.failure.message)
  return r.success
}
const bcsCall = () => {
  const parsed = parseBcsViewRequest(bcsBody)
  if (Result.isFailure(parsed)) throw new Error(parsed.failure.message)
  const r = runView(vm, view, modules, parsed.success, 2_000_000n)
  if (Result.isFailure(r)) throw new Error(r.failure.message)
  return r.success
}
if (JSON.stringify(jsonCall().json) !== '["18446744073709551615"]') throw new Error("unexpected answer")
if (JSON.stringify(bcsCall().json) !== '["18446744073709551615"]') throw new Error("unexpected BCS answer")

test("runView: coin::balance<AptosCoin> (warm)", async ({ bench }) => {
  await bench.compare(bench("JSON request → JSON values", jsonCall), bench("BCS request → values", bcsCall), {
    time: 1_500
  })
})
