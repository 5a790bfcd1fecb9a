/**
 * The ed25519 / multi_ed25519 natives charge the reference's formulas (`aptos_framework.signature.*`)
 * stage by stage: a failed stage stops the charges.
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { describe, expect, it } from "vitest"
import { BcsWriter } from "../../../../src/bcs/index.js"
import { addressFromNumber } from "../../../../src/domain/AccountAddress.js"
import { readGasSchedule } from "../../../../src/move/vm/GasSchedule.js"
import { type CallOutcome, MoveVm } from "../../../../src/move/vm/MoveVm.js"
import { genesisState } from "../genesisState.js"

const ONE = addressFromNumber(1)
const { view } = genesisState("devnet")
const vm = new MoveVm()
const entries = readGasSchedule(view).entries
const e = (k: string) => Number(entries.get(`aptos_framework.signature.${k}`)!)
const scaling = Number(entries.get("txn.gas_unit_scaling_factor")!)
const vec = (b: Uint8Array) => new BcsWriter().bytesWithLength(b).toBytes()
const call = (module: string, fn: string, args: Uint8Array[]): CallOutcome =>
  vm.call(view, { module: { address: ONE, name: module }, function: fn, tyArgs: [], args }, { maxGas: 1_000_000n })
const used = (o: CallOutcome) => {
  if (o._tag !== "Success") throw new Error(o._tag)
  return o.gasUsed
}
const units = (internal: number) => BigInt(Math.ceil(internal / scaling))

const sks = [1, 2, 3].map((n) => new Uint8Array(32).fill(n + 90))
const pks = sks.map((sk) => ed25519.getPublicKey(sk))
const msg = new TextEncoder().encode("rotate")

describe("ed25519 natives gas", () => {
  it("signature_verify_strict: base + key + signature deserialization + verify with the message bytes", () => {
    const sig = ed25519.sign(msg, sks[0]!)
    const full =
      e("base") +
      e("per_pubkey_deserialize") +
      e("per_sig_deserialize") +
      e("per_sig_strict_verify") +
      e("per_msg_hashing_base") +
      e("per_msg_byte_hashing") * msg.length
    expect(used(call("ed25519", "signature_verify_strict_internal", [vec(sig), vec(pks[0]!), vec(msg)]))).toBe(
      units(full)
    )
    // A key that does not decompress stops after its deserialization charge.
    expect(
      used(call("ed25519", "signature_verify_strict_internal", [vec(sig), vec(new Uint8Array(31)), vec(msg)]))
    ).toBe(units(e("base") + e("per_pubkey_deserialize")))
  })

  it("public_key_validate: base + deserialize + small-order check", () => {
    expect(used(call("ed25519", "public_key_validate_internal", [vec(pks[0]!)]))).toBe(
      units(e("base") + e("per_pubkey_deserialize") + e("per_pubkey_small_order_check"))
    )
  })

  it("multi_ed25519 signature_verify_strict: per key, per signature, per signature × message bytes", () => {
    const packedKey = new Uint8Array([...pks.flatMap((k) => [...k]), 2])
    const sigs = [0, 2].flatMap((i) => [...ed25519.sign(msg, sks[i]!)])
    const packedSig = new Uint8Array([...sigs, 0b1010_0000, 0, 0, 0])
    const o = call("multi_ed25519", "signature_verify_strict_internal", [vec(packedSig), vec(packedKey), vec(msg)])
    if (o._tag !== "Success") throw new Error(o._tag)
    expect(o.values[0]![0]).toBe(1)
    const full =
      e("base") +
      3 * e("per_pubkey_deserialize") +
      2 * e("per_sig_deserialize") +
      2 * (e("per_sig_strict_verify") + e("per_msg_hashing_base") + e("per_msg_byte_hashing") * msg.length)
    expect(o.gasUsed).toBe(units(full))
  })
})
