/** BCS of VM values by runtime type: round trips, and hostile bytes fail with a typed error only. */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import { MoveVm } from "../../../src/move/vm/MoveVm.js"
import { PRIMITIVES, type Type, vectorOf } from "../../../src/move/vm/Type.js"
import { fromBytes, toBytes } from "../../../src/move/vm/Value.js"
import { deserializeValue, serializeValue } from "../../../src/move/vm/ValueBcs.js"
import { VmError } from "../../../src/move/vm/VmError.js"
import { genesisState } from "./genesisState.js"

const ONE = addressFromNumber(1)
const devnet = genesisState("devnet")
const vm = new MoveVm()
const typeOf = (s: string, m: string, typeArgs: Parameters<MoveVm["typeFromTag"]>[0][] = []): Type =>
  vm.loader.withView(devnet.view, () =>
    vm.typeFromTag({ _tag: "struct", struct: { address: ONE, module: m, name: s, typeArgs } })
  )

const u64 = PRIMITIVES[4]!
const types: Type[] = [
  PRIMITIVES[0]!,
  PRIMITIVES[1]!,
  u64,
  PRIMITIVES[5]!,
  PRIMITIVES[6]!,
  PRIMITIVES[13]!,
  vectorOf(PRIMITIVES[1]!),
  vectorOf(vectorOf(u64)),
  typeOf("String", "string"),
  typeOf("Option", "option", [{ _tag: "u64" }]),
  typeOf("FungibleStore", "fungible_asset"),
  typeOf("ObjectCore", "object")
]

describe("value BCS", () => {
  it("stored resources decode and re-encode byte for byte", () => {
    let checked = 0
    for (const e of devnet.entries) {
      const op = e.op
      if (e.key._tag !== "AccessPath" || e.key.path._tag !== "Resource" || !("data" in op)) continue
      const s = e.key.path.struct
      if (s.typeArgs.length > 0) continue
      const t = vm.loader.withView(devnet.view, () => vm.typeFromTag({ _tag: "struct", struct: s }))
      const v = vm.loader.withView(devnet.view, () => deserializeValue(op.data, t))
      expect(vm.loader.withView(devnet.view, () => serializeValue(v, t))).toEqual(op.data)
      checked++
    }
    expect(checked).toBeGreaterThan(50)
  })

  it("garbage never throws anything but a VmError, and what decodes re-encodes to the same bytes", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: types.length - 1 }), fc.uint8Array({ maxLength: 80 }), (i, bytes) => {
        const t = types[i]!
        let v: ReturnType<typeof deserializeValue>
        try {
          v = vm.loader.withView(devnet.view, () => deserializeValue(bytes, t))
        } catch (e) {
          expect(e).toBeInstanceOf(VmError)
          return
        }
        expect(vm.loader.withView(devnet.view, () => serializeValue(v, t))).toEqual(bytes)
      }),
      { numRuns: 2000 }
    )
  })

  it("each encoding is its own array, though the writer behind them is reused", () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 300 }), { minLength: 2, maxLength: 5 }), (blobs) => {
        const t = vectorOf(PRIMITIVES[1]!)
        const encoded = blobs.map((b) => serializeValue(Array.from(b), t))
        for (const [i, b] of blobs.entries())
          expect([...(deserializeValue(encoded[i]!, t) as number[])]).toEqual([...b])
      })
    )
    // A huge value grows the scratch buffer; later small encodings are still exact.
    const big = Array.from({ length: 100_000 }, (_, i) => i & 0xff)
    expect(serializeValue(big, vectorOf(PRIMITIVES[1]!)).length).toBe(100_003)
    expect([...serializeValue(7n, u64)]).toEqual([7, 0, 0, 0, 0, 0, 0, 0])
  })

  it("values nested deeper than 128 fail with VM_MAX_VALUE_DEPTH_REACHED", () => {
    let t: Type = u64
    for (let i = 0; i < 200; i++) t = vectorOf(t)
    const bytes = new Uint8Array(200).fill(1)
    expect(() => deserializeValue(bytes, t)).toThrow(/VM_MAX_VALUE_DEPTH_REACHED/)
  })
})

describe("vector<u8> values", () => {
  it("fromBytes is the bytes as numbers, in order, a new array each time, and toBytes takes it back", () =>
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const v = fromBytes(bytes)
        expect(v).toEqual(Array.from(bytes))
        expect(Array.isArray(v)).toBe(true)
        expect(fromBytes(bytes)).not.toBe(v)
        expect(toBytes(v)).toEqual(bytes)
      })
    ))
})

describe("value BCS walks containers with an explicit stack", () => {
  it("128 nested vectors round-trip; a 200,000-element vector of vectors too", () => {
    let t: Type = u64
    for (let i = 0; i < 127; i++) t = vectorOf(t)
    const w: number[] = []
    for (let i = 0; i < 127; i++) w.push(1)
    w.push(7, 0, 0, 0, 0, 0, 0, 0)
    const bytes = Uint8Array.from(w)
    const v = deserializeValue(bytes, t)
    expect(serializeValue(v, t)).toEqual(bytes)
    const wide = vectorOf(vectorOf(PRIMITIVES[1]!))
    const n = 200_000
    const many = new Uint8Array(3 + 2 * n)
    many.set([0xc0, 0x9a, 0x0c]) // uleb128(200000)
    for (let i = 0; i < n; i++) many.set([1, i & 0xff], 3 + 2 * i)
    const decoded = deserializeValue(many, wide) as number[][]
    expect(decoded).toHaveLength(n)
    expect(decoded[n - 1]).toEqual([(n - 1) & 0xff])
    expect(serializeValue(decoded, wide)).toEqual(many)
  })
})
