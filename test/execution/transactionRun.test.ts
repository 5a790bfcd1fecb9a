/**
 * `transactionRun` reads the environment a transaction runs in (gas schedule and its `txn.*`
 * params, feature flags, block time) once per snapshot: runs at one snapshot — the admission
 * worker's batch — share it, another snapshot reads it again, and a view without a snapshot (a
 * block's overlay) reads it every time. What it reads is what reading state directly gives.
 */
import { Ed25519Account, Ed25519PrivateKey } from "@aptos-labs/ts-sdk"
import { describe, expect, it } from "vitest"
import { readFeatures } from "../../src/execution/Features.js"
import { transactionMetadata } from "../../src/execution/TransactionMetadata.js"
import { transactionRun } from "../../src/execution/TransactionRun.js"
import { readGasSchedule } from "../../src/move/vm/GasSchedule.js"
import { MoveVm } from "../../src/move/vm/MoveVm.js"
import { type StateView, stateViewFromReader } from "../../src/move/vm/StateView.js"
import { genesisState } from "../move/vm/genesisState.js"
import { decodeSigned, signedSimple } from "./sdkSigned.js"

const devnet = genesisState("devnet")
const md = transactionMetadata(
  decodeSigned(signedSimple(new Ed25519Account({ privateKey: new Ed25519PrivateKey(new Uint8Array(32).fill(3)) })))
)

/** `view` counting its reads of resources at 0x1 (the environment's three live there). */
const counting = (view: StateView) => {
  const reads = { count: 0 }
  const counted: StateView = {
    ...view,
    resource: (address, tag, tagBytes) => {
      if (address[31] === 1 && address.slice(0, 31).every((b) => b === 0)) reads.count++
      return view.resource(address, tag, tagBytes)
    }
  }
  return { counted, reads }
}

const environmentOf = (r: ReturnType<typeof transactionRun>) => {
  if (typeof r === "string") throw new Error(r)
  return { schedule: r.schedule, params: r.params, features: r.features, nowUsecs: r.nowUsecs }
}

describe("transactionRun's environment", () => {
  it("is read once per snapshot, again for another, every time without one; equal to reading state", () => {
    const vm = new MoveVm()
    const atZero = counting(stateViewFromReader(devnet.reader, 0n))
    const first = environmentOf(transactionRun(vm, atZero.counted, md, {}))
    const readsOnce = atZero.reads.count
    expect(readsOnce).toBeGreaterThan(0)
    const second = environmentOf(transactionRun(vm, atZero.counted, md, {}))
    expect(atZero.reads.count).toBe(readsOnce)
    expect(second.schedule).toBe(first.schedule)
    expect(second.features).toBe(first.features)

    const atOne = counting(stateViewFromReader(devnet.reader, 1n))
    transactionRun(vm, atOne.counted, md, {})
    expect(atOne.reads.count).toBe(readsOnce)

    const unnamed = counting(stateViewFromReader(devnet.reader))
    transactionRun(vm, unnamed.counted, md, {})
    transactionRun(vm, unnamed.counted, md, {})
    expect(unnamed.reads.count).toBe(2 * readsOnce)

    const plain = stateViewFromReader(devnet.reader)
    expect(first.schedule.entries).toEqual(readGasSchedule(plain).entries)
    expect(first.features.isEnabled("TRANSACTION_PAYLOAD_V2")).toBe(
      readFeatures(plain).isEnabled("TRANSACTION_PAYLOAD_V2")
    )
    expect(first.nowUsecs).toBe(0n)
  })
})
