/**
 * Our genesis, built by running the framework's genesis functions in our VM:
 * - with the devnet genesis's own parameters it reproduces devnet.blob byte for byte (the validators'
 *   proofs of possession are not stored on chain, so that one check is accepted, nothing else);
 * - a local chain's genesis (chain id 4, a real validator key) imports into the ledger, and a block
 *   prologue proposed by its validator advances time.
 */
import { bls12_381 } from "@noble/curves/bls12-381.js"
import { ed25519 } from "@noble/curves/ed25519.js"
import { Effect, Result } from "effect"
import { describe, expect, it } from "vitest"
import { BcsReader, BcsWriter, toHex } from "../../../src/bcs/index.js"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import { decodeGenesisTransaction } from "../../../src/domain/Genesis.js"
import type { ChangeSet } from "../../../src/domain/Transaction.js"
import { executeSystemCall } from "../../../src/execution/executeSystemCall.js"
import {
  buildGenesis,
  frameworkOfGenesis,
  genesisParamsOf,
  localGenesisParams,
  localValidator,
  POP_DST
} from "../../../src/execution/genesis/index.js"
import { OverlayStateView } from "../../../src/execution/OverlayStateView.js"
import { importGenesis } from "../../../src/ledger/importGenesis.js"
import * as LedgerMemory from "../../../src/ledger/LedgerMemory.js"
import { MoveVm } from "../../../src/move/vm/MoveVm.js"
import { frameworkNatives, type NativeFunction } from "../../../src/move/vm/natives/index.js"
import type { StateView } from "../../../src/move/vm/StateView.js"
import { genesisState } from "../../move/vm/genesisState.js"
import { loadGenesisBytes } from "../../support/genesis.js"

const ONE = addressFromNumber(1)
const devnetBytes = loadGenesisBytes("devnet")
const devnet = (() => {
  const d = decodeGenesisTransaction(devnetBytes)
  if (Result.isFailure(d)) throw new Error(d.failure.message)
  return d.success
})()
const framework = frameworkOfGenesis(devnet)

const POP = "0x1::bls12381::verify_proof_of_possession_internal"
const bytesOf = (v: unknown) => Uint8Array.from(v as number[])
/** The real check with @noble/curves, where the VM does not have the native yet. */
const nobleProofOfPossession: NativeFunction = (_c, _t, [pk, pop]) => {
  try {
    const bls = bls12_381.longSignatures
    return [bls.verify(bytesOf(pop), bls.hash(bytesOf(pk), POP_DST), bytesOf(pk))]
  } catch {
    return [false]
  }
}
const vmWith = (natives: Record<string, NativeFunction>): MoveVm => {
  const table = new Map(frameworkNatives)
  for (const [k, v] of Object.entries(natives)) table.set(k, v)
  return new MoveVm({ natives: table })
}

const changeSetOf = (bytes: Uint8Array): ChangeSet => {
  const d = decodeGenesisTransaction(bytes)
  if (Result.isFailure(d) || d.success.payload._tag !== "Direct") throw new Error("not a direct genesis")
  return d.success.payload.changeSet
}

const EMPTY: StateView = {
  module: () => undefined,
  resource: () => undefined,
  resourceGroup: () => undefined,
  tableItem: () => undefined
}

describe("buildGenesis", () => {
  it("with the devnet genesis's parameters rebuilds devnet.blob byte for byte", () => {
    // Devnet's validators' proofs of possession are not stored on chain: only that check is accepted.
    const vm = vmWith({ [POP]: () => [true] })
    const params = genesisParamsOf(vm, genesisState("devnet").view)
    expect(params.chainId).toBe(243)
    expect(params.validators).toHaveLength(5)
    const out = buildGenesis(framework, params, vm)
    if (out._tag !== "Built") throw new Error(`${out.step}: ${JSON.stringify(out.failure)}`)
    const ours = changeSetOf(out.bytes)
    const theirs = changeSetOf(devnetBytes)
    const keys = (c: ChangeSet) => c.writeSet.entries.map((e) => toHex(e.keyBytes))
    expect(keys(ours)).toEqual(keys(theirs))
    const differing = ours.writeSet.entries.filter((e, i) => {
      const t = theirs.writeSet.entries[i]!
      return e.op._tag !== t.op._tag || ("data" in e.op && "data" in t.op && toHex(e.op.data) !== toHex(t.op.data))
    })
    expect(differing.map((e) => toHex(e.keyBytes))).toEqual([])
    expect(ours.events.length).toBe(37)
    expect(toHex(out.bytes)).toBe(toHex(devnetBytes))
  })

  it("a local genesis (chain id 4, one validator) imports into the ledger, and its validator's block advances time", async () => {
    const vm = frameworkNatives.has(POP) ? new MoveVm() : vmWith({ [POP]: nobleProofOfPossession })
    const base = genesisParamsOf(vm, genesisState("devnet").view)
    const root = ed25519.getPublicKey(new Uint8Array(32).fill(9))
    const funded = addressFromNumber(0xf00d)
    const params = localGenesisParams(base, {
      rootPublicKey: root,
      epochIntervalSecs: 60n,
      accounts: [{ address: funded, amount: 123_456_789n }]
    })
    const out = buildGenesis(framework, params, vm)
    if (out._tag !== "Built")
      throw new Error(`${out.step}: ${JSON.stringify(out.failure, (_k, v) => (typeof v === "bigint" ? `${v}` : v))}`)

    // The ledger takes it as any genesis.
    const imported = await Effect.runPromise(
      Effect.flatMap(LedgerMemory.make(), (handle) => importGenesis(handle, out.bytes)) as Effect.Effect<
        unknown,
        unknown
      >
    )
    expect(imported).toMatchObject({ _tag: "Imported", chainId: 4 })

    const state = new OverlayStateView(EMPTY, [{ writeSet: changeSetOf(out.bytes).writeSet, version: 0n }])
    const view = (module: string, fn: string, args: Uint8Array[] = [], tyArgs = [] as never[]) => {
      const o = vm.call(state, { module: { address: ONE, name: module }, function: fn, tyArgs, args })
      if (o._tag !== "Success")
        throw new Error(`${module}::${fn}: ${JSON.stringify(o, (_k, v) => (typeof v === "bigint" ? `${v}` : v))}`)
      return new BcsReader(o.values[0]!)
    }
    expect(view("chain_id", "get").u8()).toBe(4)
    expect(
      view("coin", "balance", [funded], [
        { _tag: "struct", struct: { address: ONE, module: "aptos_coin", name: "AptosCoin", typeArgs: [] } }
      ] as never[]).u64()
    ).toBe(123_456_789n)
    expect(view("block", "get_epoch_interval_secs").u64()).toBe(60n)

    // A block proposed by the genesis validator (a current-epoch validator) moves time forward.
    const validator = localValidator()
    const w = new BcsWriter()
    const u64 = (n: bigint) => new BcsWriter(8).u64(n).toBytes()
    const prologue = executeSystemCall(
      vm,
      state,
      {
        module: { address: ONE, name: "block" },
        function: "block_prologue",
        tyArgs: [],
        signers: [addressFromNumber(0)],
        args: [
          new Uint8Array(32).fill(0xb1),
          u64(1n),
          u64(1n),
          validator.address,
          w.uleb128(0).toBytes(),
          new BcsWriter().uleb128(0).toBytes(),
          u64(1_000_000n)
        ]
      },
      { id: { _tag: "BlockMeta", id: new Uint8Array(32).fill(0xb1) } }
    )
    if (prologue._tag !== "Success")
      throw new Error(JSON.stringify(prologue, (_k, v) => (typeof v === "bigint" ? `${v}` : v)))
    state.push({ writeSet: prologue.changeSet.writeSet, version: 1n })
    expect(view("timestamp", "now_microseconds").u64()).toBe(1_000_000n)
  })
})
