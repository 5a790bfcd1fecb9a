/**
 * `executeSystemCall` and sessions on the devnet genesis state: an APT transfer from 0xa550c18 run
 * as a call with a signer produces the reference's kind of change set (the recipient's primary
 * store created with the amount, the sender's balance moved, the events), which round-trips through
 * the ledger's codecs and reads back through an `OverlayStateView`.
 */
import { sha3_256 } from "@noble/hashes/sha3.js"
import { describe, expect, it } from "vitest"
import { BcsReader, BcsWriter, toHex } from "../../src/bcs/index.js"
import { type AccountAddress, addressFromNumber } from "../../src/domain/AccountAddress.js"
import { readContractEvent, writeContractEvent } from "../../src/domain/ContractEventCodec.js"
import type { TypeTag } from "../../src/domain/TypeTag.js"
import { typeTagToString } from "../../src/domain/TypeTagString.js"
import { compareKeyBytes, readWriteSet, writeWriteSet } from "../../src/domain/WriteSetCodec.js"
import { executeSystemCall } from "../../src/execution/executeSystemCall.js"
import { OverlayStateView } from "../../src/execution/OverlayStateView.js"
import { MoveVm } from "../../src/move/vm/MoveVm.js"
import type { SessionId } from "../../src/move/vm/SessionId.js"
import { genesisState } from "../move/vm/genesisState.js"

const ONE = addressFromNumber(1)
const CORE = addressFromNumber(0xa550c18)
const APT_METADATA = addressFromNumber(0xa)
const aptosCoin: TypeTag = {
  _tag: "struct",
  struct: { address: ONE, module: "aptos_coin", name: "AptosCoin", typeArgs: [] }
}
const u64 = (n: bigint): Uint8Array => new BcsWriter(8).u64(n).toBytes()
const txnId = (seq: bigint): SessionId => ({
  _tag: "Txn",
  sender: CORE,
  sequenceNumber: seq,
  scriptHash: new Uint8Array()
})

const primaryStore = (owner: AccountAddress): Uint8Array => {
  const seed = new Uint8Array(65)
  seed.set(owner, 0)
  seed.set(APT_METADATA, 32)
  seed[64] = 0xfc
  return sha3_256(seed)
}

const devnet = genesisState("devnet")

const balance = (vm: MoveVm, view: OverlayStateView, owner: AccountAddress): bigint => {
  const o = vm.call(view, {
    module: { address: ONE, name: "coin" },
    function: "balance",
    tyArgs: [aptosCoin],
    args: [owner]
  })
  if (o._tag !== "Success") throw new Error(`balance: ${o._tag}`)
  return new BcsReader(o.values[0]!).u64()
}

const transfer = (vm: MoveVm, view: OverlayStateView, to: AccountAddress, amount: bigint, seq = 0n) =>
  executeSystemCall(
    vm,
    view,
    {
      module: { address: ONE, name: "aptos_account" },
      function: "transfer",
      tyArgs: [],
      signers: [CORE],
      args: [to, u64(amount)]
    },
    { id: txnId(seq) }
  )

describe("executeSystemCall", () => {
  const vm = new MoveVm()
  const recipient = addressFromNumber(0xb0b)

  it("an APT transfer creates the recipient's primary store with the amount and moves the balance", () => {
    const base = new OverlayStateView(devnet.view)
    const before = balance(vm, base, CORE)
    const out = transfer(vm, base, recipient, 1000n)
    if (out._tag !== "Success") throw new Error(JSON.stringify(out, (_k, v) => (typeof v === "bigint" ? `${v}` : v)))
    const { writeSet, events } = out.changeSet
    // BCS key order, every op plain (no metadata: the executor adds it).
    for (let i = 1; i < writeSet.entries.length; i++)
      expect(compareKeyBytes(writeSet.entries[i - 1]!.keyBytes, writeSet.entries[i]!.keyBytes)).toBeLessThan(0)
    const store = primaryStore(recipient)
    const storeWrite = writeSet.entries.find(
      (e) => e.key._tag === "AccessPath" && e.key.path._tag === "ResourceGroup" && toHex(e.key.address) === toHex(store)
    )
    expect(storeWrite?.op._tag).toBe("Creation")
    // The sender's store is modified, not created.
    const senderWrite = writeSet.entries.find(
      (e) => e.key._tag === "AccessPath" && toHex(e.key.address) === toHex(primaryStore(CORE))
    )
    expect(senderWrite?.op._tag).toBe("Modification")
    // Events: the module events of a FA transfer (withdraw, deposit), all V2.
    const names = events.map((e) => typeTagToString(e.typeTag))
    expect(names).toContain("0x1::fungible_asset::Withdraw")
    expect(names).toContain("0x1::fungible_asset::Deposit")
    const after = new OverlayStateView(devnet.view, [{ writeSet, version: 1n }])
    expect(balance(vm, after, recipient)).toBe(1000n)
    expect(balance(vm, after, CORE)).toBe(before - 1000n)
  })

  it("the change set round-trips through the ledger's codecs", () => {
    const out = transfer(vm, new OverlayStateView(devnet.view), recipient, 7n)
    if (out._tag !== "Success") throw new Error(out._tag)
    const w = new BcsWriter()
    writeWriteSet(w, out.changeSet.writeSet)
    const bytes = w.toBytes()
    const back = readWriteSet(new BcsReader(bytes))
    const w2 = new BcsWriter()
    writeWriteSet(w2, back)
    expect(toHex(w2.toBytes())).toBe(toHex(bytes))
    for (const e of out.changeSet.events) {
      const ew = new BcsWriter()
      writeContractEvent(ew, e)
      const eb = ew.toBytes()
      const ew2 = new BcsWriter()
      writeContractEvent(ew2, readContractEvent(new BcsReader(eb)))
      expect(toHex(ew2.toBytes())).toBe(toHex(eb))
    }
  })

  it("a second transfer over the first's changes modifies the recipient's store", () => {
    const first = transfer(vm, new OverlayStateView(devnet.view), recipient, 1000n)
    if (first._tag !== "Success") throw new Error(first._tag)
    const view = new OverlayStateView(devnet.view, [{ writeSet: first.changeSet.writeSet, version: 1n }])
    const second = transfer(vm, view, recipient, 500n, 1n)
    if (second._tag !== "Success") throw new Error(second._tag)
    const store = primaryStore(recipient)
    const w = second.changeSet.writeSet.entries.find(
      (e) => e.key._tag === "AccessPath" && toHex(e.key.address) === toHex(store)
    )
    expect(w?.op._tag).toBe("Modification")
    view.push({ writeSet: second.changeSet.writeSet, version: 2n })
    expect(balance(vm, view, recipient)).toBe(1500n)
  })

  it("an abort is returned with its error-map entry and no change set", () => {
    const poor = addressFromNumber(0xdead)
    const out = executeSystemCall(
      vm,
      new OverlayStateView(devnet.view),
      {
        module: { address: ONE, name: "aptos_account" },
        function: "transfer",
        tyArgs: [],
        signers: [poor],
        args: [recipient, u64(1n)]
      },
      { id: txnId(0n) }
    )
    expect(out._tag).toBe("Abort")
    if (out._tag === "Abort") expect(out.info?.name).toMatch(/INSUFFICIENT_BALANCE|ESTORE|NOT_FOUND/)
  })

  it("a wrong signer count is NUMBER_OF_SIGNER_ARGUMENTS_MISMATCH", () => {
    const out = executeSystemCall(
      vm,
      new OverlayStateView(devnet.view),
      {
        module: { address: ONE, name: "aptos_account" },
        function: "transfer",
        tyArgs: [],
        signers: [],
        args: [recipient, u64(1n)]
      },
      { id: txnId(0n) }
    )
    expect(out._tag === "Error" && out.error.status).toBe("NUMBER_OF_SIGNER_ARGUMENTS_MISMATCH")
  })
})
