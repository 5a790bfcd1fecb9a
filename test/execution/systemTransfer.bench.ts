/**
 * An APT transfer (`0x1::aptos_account::transfer` from 0xa550c18 to an existing account) run
 * through the VM's session API on the devnet genesis state, metered with the devnet schedule and
 * finished into a change set: the VM's share of a transfer (no prologue, epilogue, fees or
 * signature; the executor's figure is end to end).
 *
 *   nice npx vitest bench --run test/execution/systemTransfer.bench.ts
 */
import { test } from "vitest"
import { BcsWriter } from "../../src/bcs/index.js"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { executeSystemCall } from "../../src/execution/executeSystemCall.js"
import { OverlayStateView } from "../../src/execution/OverlayStateView.js"
import { meterFor, readGasSchedule } from "../../src/move/vm/GasSchedule.js"
import { MoveVm } from "../../src/move/vm/MoveVm.js"
import { genesisState } from "../move/vm/genesisState.js"

const ONE = addressFromNumber(1)
const CORE = addressFromNumber(0xa550c18)
const BOB = addressFromNumber(0xb0b)
const devnet = genesisState("devnet")
const vm = new MoveVm()
const schedule = readGasSchedule(devnet.view)
const amount = new BcsWriter(8).u64(1n).toBytes()
const call = {
  module: { address: ONE, name: "aptos_account" },
  function: "transfer",
  tyArgs: [],
  signers: [CORE],
  args: [BOB, amount]
}
// Bob exists (has a primary store) after one transfer: the bench moves APT between existing stores.
const first = executeSystemCall(vm, new OverlayStateView(devnet.view), call, {
  id: { _tag: "Txn", sender: CORE, sequenceNumber: 0n, scriptHash: new Uint8Array() }
})
if (first._tag !== "Success") throw new Error(first._tag)
const view = new OverlayStateView(devnet.view, [{ writeSet: first.changeSet.writeSet, version: 1n }])
let seq = 1n

test("APT transfer through VmSession (VM only)", async ({ bench }) => {
  await bench.compare(
    bench("aptos_account::transfer, entry mode, metered with caps, finish()", () => {
      const session = vm.session(view, {
        id: { _tag: "Txn", sender: CORE, sequenceNumber: seq++, scriptHash: new Uint8Array() }
      })
      const out = session.execute(call, { mode: "entry", gas: meterFor(schedule, 2_000_000n, { caps: true }) })
      if (out._tag !== "Success") throw new Error(out._tag)
      const done = session.finish()
      if (done._tag !== "Success") throw new Error(done._tag)
    }),
    bench("the same, unmetered system call (executeSystemCall)", () => {
      const out = executeSystemCall(vm, view, call, {
        id: { _tag: "Txn", sender: CORE, sequenceNumber: seq++, scriptHash: new Uint8Array() }
      })
      if (out._tag !== "Success") throw new Error(out._tag)
    }),
    { time: 2_000 }
  )
})
