/** Natives called through framework functions at devnet genesis (arguments BCS, results BCS). */
import { ed25519 } from "@noble/curves/ed25519.js"
import { sha3_256 } from "@noble/hashes/sha3.js"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { BcsReader, BcsWriter } from "../../../src/bcs/index.js"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import type { TypeTag } from "../../../src/domain/TypeTag.js"
import { type CallOutcome, MoveVm } from "../../../src/move/vm/MoveVm.js"
import { genesisState } from "./genesisState.js"

const ONE = addressFromNumber(1)
const { view } = genesisState("devnet")
const vm = new MoveVm()
const u64: TypeTag = { _tag: "u64" }
const stringTag: TypeTag = { _tag: "struct", struct: { address: ONE, module: "string", name: "String", typeArgs: [] } }
const bytes = (b: Uint8Array) => new BcsWriter().bytesWithLength(b).toBytes()
const enc = (f: (w: BcsWriter) => void) => {
  const w = new BcsWriter()
  f(w)
  return w.toBytes()
}
const call = (module: string, fn: string, tyArgs: TypeTag[], args: Uint8Array[]): CallOutcome =>
  vm.call(view, { module: { address: ONE, name: module }, function: fn, tyArgs, args }, { maxGas: 2_000_000n })
const result = (o: CallOutcome): BcsReader => {
  if (o._tag !== "Success") throw new Error(`${o._tag}: ${o._tag === "Error" ? o.error.message : o.code}`)
  return new BcsReader(o.values[0]!)
}

describe("natives", () => {
  it("ed25519::signature_verify_strict accepts a @noble/curves signature and rejects a tampered one", () => {
    const sk = new Uint8Array(32).fill(7)
    const pk = ed25519.getPublicKey(sk)
    const msg = new TextEncoder().encode("hello aptos")
    const sig = ed25519.sign(msg, sk)
    const verify = (s: Uint8Array) =>
      result(call("ed25519", "signature_verify_strict", [], [bytes(s), bytes(pk), bytes(msg)])).bool()
    expect(verify(sig)).toBe(true)
    const bad = sig.slice()
    bad[40]! ^= 1
    expect(verify(bad)).toBe(false)
    expect(result(call("ed25519", "public_key_validate_internal", [], [bytes(pk)])).bool()).toBe(true)
    expect(result(call("ed25519", "public_key_validate_internal", [], [bytes(new Uint8Array(32))])).bool()).toBe(false)
  })

  it("hash::sha3_256 matches @noble/hashes", () => {
    const data = new TextEncoder().encode("movenode")
    expect(result(call("hash", "sha3_256", [], [bytes(data)])).bytesWithLength()).toEqual(sha3_256(data))
  })

  it("object::create_user_derived_object_address is sha3(source ‖ derive_from ‖ 0xFC), hot pairs included", () => {
    const derive = (a: Uint8Array, b: Uint8Array) =>
      result(call("object", "create_user_derived_object_address", [], [a, b])).fixed(32)
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (a, b) => {
          const expected = sha3_256(new Uint8Array([...a, ...b, 0xfc]))
          expect([...derive(a, b)]).toEqual([...expected])
          expect([...derive(a, b)]).toEqual([...expected]) // a second time, from the memo
          expect([...derive(b, a)]).toEqual([...sha3_256(new Uint8Array([...b, ...a, 0xfc]))])
        }
      ),
      { numRuns: 50 }
    )
    // Past the memo's bound (4,096 pairs) it starts again, and answers stay right either side of it.
    const b = new Uint8Array(32).fill(7)
    const sources = Array.from({ length: 4200 }, (_, i) => {
      const a = new Uint8Array(32)
      a[0] = i & 0xff
      a[1] = i >> 8
      return a
    })
    for (const a of sources) derive(a, b)
    for (const a of [sources[0]!, sources[4099]!, sources[4199]!])
      expect([...derive(a, b)]).toEqual([...sha3_256(new Uint8Array([...a, ...b, 0xfc]))])
  })

  it("bcs::to_bytes of a u64 reference", () => {
    const r = result(call("bcs", "to_bytes", [u64], [enc((w) => w.u64(7n))]))
    expect([...r.bytesWithLength()]).toEqual([7, 0, 0, 0, 0, 0, 0, 0])
  })

  it("type_info::type_name prints canonical type names", () => {
    const t: TypeTag = { _tag: "vector", element: stringTag }
    expect(result(call("type_info", "type_name", [t], [])).string()).toBe("vector<0x1::string::String>")
  })

  it("string_utils formats values (to_string, format2)", () => {
    expect(result(call("string_utils", "to_string", [u64], [enc((w) => w.u64(5n))])).string()).toBe("5")
    const fmt = bytes(new TextEncoder().encode("{} and {}"))
    const o = call(
      "string_utils",
      "format2",
      [u64, { _tag: "bool" }],
      [fmt, enc((w) => w.u64(1n)), enc((w) => w.bool(true))]
    )
    expect(result(o).string()).toBe("1 and true")
  })

  it("cmp::compare orders integers (Less, Equal, Greater)", () => {
    const cmp = (a: bigint, b: bigint) =>
      result(call("cmp", "compare", [u64], [enc((w) => w.u64(a)), enc((w) => w.u64(b))])).uleb128()
    expect([cmp(1n, 2n), cmp(2n, 2n), cmp(3n, 2n)]).toEqual([0, 1, 2])
  })

  it("from_bcs::to_address decodes or aborts", () => {
    const a = addressFromNumber(0xabc)
    expect(result(call("from_bcs", "to_address", [], [bytes(a)])).fixed(32)).toEqual(a)
    const bad = call("from_bcs", "to_address", [], [bytes(new Uint8Array(3))])
    expect(bad._tag).toBe("Abort")
  })

  it("string natives: sub_string and index_of through 0x1::string", () => {
    const s = enc((w) => w.string("hello world"))
    expect(result(call("string", "index_of", [], [s, enc((w) => w.string("world"))])).u64()).toBe(6n)
    expect(result(call("string", "sub_string", [], [s, enc((w) => w.u64(0n)), enc((w) => w.u64(5n))])).string()).toBe(
      "hello"
    )
  })
})
