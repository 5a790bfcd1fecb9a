/**
 * The VM's caches of pure functions: interned types and memoised substitutions, session keys of
 * byte strings, and what a view naming a snapshot lets the loader and the gas schedule skip.
 */
import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import { BcsWriter } from "../../../src/bcs/index.js"
import { writeStateKey } from "../../../src/domain/StateKeyCodec.js"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import type { TypeTag } from "../../../src/domain/TypeTag.js"
import { MoveVm } from "../../../src/move/vm/MoveVm.js"
import { addressKey, bytesKey, keepBytesKey, knownAddressKey } from "../../../src/domain/mapKeys.js"
import { accessPathKey, cachedAccessPathKey } from "../../../src/move/vm/StateView.js"
import { type KeyValueReader, stateViewFromReader } from "../../../src/move/vm/StateView.js"
import {
  PRIMITIVE_NAMES,
  PRIMITIVES,
  primitiveNamed,
  refOf,
  type StructType,
  structOf,
  substitute,
  substituteAll,
  type Type,
  typeEquals,
  typeName,
  Types,
  tyParam,
  vectorOf
} from "../../../src/move/vm/Type.js"
import { genesisState } from "./genesisState.js"

const def = (name: string, typeParams: number): StructType => ({
  address: addressFromNumber(1),
  module: "m",
  name,
  abilities: 0xf,
  typeParams: Array.from({ length: typeParams }, () => ({ constraints: 0, isPhantom: false })),
  fields: [],
  variants: undefined,
  isNative: false,
  qualifiedName: `0x1::m::${name}`
})

describe("interned types", () => {
  const Pair = def("Pair", 2)
  it("equal types built twice are one object", () => {
    assert.strictEqual(vectorOf(Types.u8), vectorOf(Types.u8))
    assert.strictEqual(refOf(Types.u64, true), refOf(Types.u64, true))
    assert.notStrictEqual(refOf(Types.u64, true), refOf(Types.u64, false))
    const a = structOf(Pair, [Types.u64, vectorOf(Types.address)])
    const b = structOf(Pair, [Types.u64, vectorOf(Types.address)])
    assert.strictEqual(a, b)
    assert.notStrictEqual(a, structOf(Pair, [Types.u64, vectorOf(Types.u8)]))
  })

  it("one struct loaded twice (two definition objects of one name) is one type; another name is not", () => {
    const again = def("Pair", 2)
    assert.notStrictEqual(again, Pair)
    assert.isTrue(typeEquals(structOf(Pair, [Types.u64, Types.bool]), structOf(again, [Types.u64, Types.bool])))
    assert.isFalse(typeEquals(structOf(Pair, [Types.u64, Types.bool]), structOf(again, [Types.u64, Types.u8])))
    assert.isFalse(
      typeEquals(structOf(Pair, [Types.u64, Types.bool]), structOf(def("Other", 2), [Types.u64, Types.bool]))
    )
  })

  it("substitution is memoised and agrees with building the closed type directly", () => {
    const open = structOf(Pair, [tyParam(1), vectorOf(tyParam(0))])
    const closed = substitute(open, [Types.bool, Types.u128])
    assert.strictEqual(closed, structOf(Pair, [Types.u128, vectorOf(Types.bool)]))
    assert.strictEqual(substitute(open, [Types.bool, Types.u128]), closed)
    assert.strictEqual(typeName(closed), "0x1::m::Pair<u128, vector<bool>>")
    const sig = [tyParam(0), Types.u8]
    assert.strictEqual(substituteAll(sig, [Types.u16]), substituteAll(sig, [Types.u16]))
    assert.deepStrictEqual(substituteAll(sig, [Types.u16]), [Types.u16, Types.u8])
    const closedSig = [Types.u8]
    assert.strictEqual(substituteAll(closedSig, [Types.u16]), closedSig)
  })

  it("equality stays structural for type objects built outside the intern tables", () => {
    const interned = structOf(Pair, [Types.u8, Types.u8])
    const literal: Type = { k: 16, def: Pair, args: [Types.u8, Types.u8], g: false }
    assert.isTrue(typeEquals(interned, literal))
  })

  it("one primitive table serves kinds, names and tags", () => {
    PRIMITIVE_NAMES.forEach((name, k) => {
      assert.strictEqual(primitiveNamed(name), PRIMITIVES[k])
      assert.strictEqual(typeName(PRIMITIVES[k]!), name)
    })
    assert.isUndefined(primitiveNamed("vector"))
  })
})

describe("bytesKey", () => {
  it("distinct byte strings get distinct keys, equal ones equal keys", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70 }), fc.uint8Array({ maxLength: 70 }), (a, b) => {
        const same = a.length === b.length && a.every((x, i) => x === b[i])
        assert.strictEqual(bytesKey(a) === bytesKey(b), same)
        assert.strictEqual(bytesKey(a), bytesKey(Uint8Array.from(a)))
      })
    )
    // An odd tail cannot pose as an even-length string's last pairs.
    assert.notStrictEqual(bytesKey(Uint8Array.of(1, 2, 3)), bytesKey(Uint8Array.of(1, 2, 0, 3)))
  })

  it("addresses (32 bytes, their own form) never share a key with another length, and a view at an offset keys its own bytes", () => {
    // Lengths around the address form's 17 code units and an address's 32 bytes, bytes mostly 0 so
    // that a latin1 key could only differ from the address form by its content.
    const bytes = (n: number) =>
      fc.uint8Array({ minLength: n, maxLength: n }).map((a) => a.map((x) => (x < 200 ? 0 : x)))
    const anyLength = fc.oneof(bytes(16), bytes(17), bytes(18), bytes(32), bytes(33), bytes(34))
    fc.assert(
      fc.property(anyLength, anyLength, fc.nat({ max: 5 }), (a, b, offset) => {
        const same = a.length === b.length && a.every((x, i) => x === b[i])
        assert.strictEqual(bytesKey(a) === bytesKey(b), same)
        const padded = new Uint8Array(offset + a.length + 3).fill(0xee)
        padded.set(a, offset)
        assert.strictEqual(bytesKey(padded.subarray(offset, offset + a.length)), bytesKey(a))
        assert.strictEqual(bytesKey(Buffer.from(a)), bytesKey(a))
      })
    )
  })

  it("a kept array's key is the key its bytes build, and an address has one key however it is asked", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 120 }), fc.uint8Array({ minLength: 32, maxLength: 32 }), (a, address) => {
        const kept = Uint8Array.from(a)
        keepBytesKey(kept)
        assert.strictEqual(bytesKey(kept), bytesKey(Uint8Array.from(a)))
        const other = Uint8Array.from(address)
        assert.strictEqual(knownAddressKey(other), bytesKey(address))
        assert.strictEqual(addressKey(other), bytesKey(address))
        assert.strictEqual(knownAddressKey(other), addressKey(Uint8Array.from(address)))
      })
    )
  })
})

describe("cachedAccessPathKey", () => {
  it("is accessPathKey's bytes, one array per (address, kind, tag object)", () => {
    const tags = [Uint8Array.of(1, 2, 3), new Uint8Array(200).fill(7), Uint8Array.of(1, 2, 3)]
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.constantFrom<1 | 2>(1, 2),
        fc.nat({ max: 2 }),
        (address, kind, t) => {
          const key = cachedAccessPathKey(address, kind, tags[t]!)
          assert.deepStrictEqual(key, accessPathKey(address, kind, tags[t]!))
          assert.strictEqual(cachedAccessPathKey(Uint8Array.from(address), kind, tags[t]!), key)
          // Its map key is kept with it: the key of its bytes.
          assert.strictEqual(bytesKey(key), bytesKey(accessPathKey(address, kind, tags[t]!)))
          // Another kind, or an equal tag in another object, is another entry (with its own bytes).
          assert.deepStrictEqual(
            cachedAccessPathKey(address, kind === 1 ? 2 : 1, tags[t]!),
            accessPathKey(address, kind === 1 ? 2 : 1, tags[t]!)
          )
        }
      )
    )
  })
})

describe("views naming a snapshot", () => {
  const ONE = addressFromNumber(1)
  const aptosCoin: TypeTag = {
    _tag: "struct",
    struct: { address: ONE, module: "aptos_coin", name: "AptosCoin", typeArgs: [] }
  }
  const balance = {
    module: { address: ONE, name: "coin" },
    function: "balance",
    tyArgs: [aptosCoin],
    args: [addressFromNumber(0xa550c18)]
  }
  /** The genesis reader, counting versioned reads (module reads). */
  const counting = () => {
    const { reader } = genesisState("devnet")
    const counter = { moduleReads: 0, reads: 0 }
    const wrapped: KeyValueReader = {
      get: (k) => {
        counter.reads++
        return reader.get(k)
      },
      getVersioned: (k) => {
        counter.moduleReads++
        return reader.getVersioned(k)
      }
    }
    return { wrapped, counter }
  }

  it("modules are checked once per snapshot: all cached ones again for a new snapshot", () => {
    const vm = new MoveVm()
    const { wrapped, counter } = counting()
    const first = vm.call(stateViewFromReader(wrapped, 7n), balance, { maxGas: 2_000_000n, view: true })
    assert.strictEqual(first._tag, "Success")
    const loaded = counter.moduleReads
    assert.isAbove(loaded, 1)
    const again = vm.call(stateViewFromReader(wrapped, 7n), balance, { maxGas: 2_000_000n, view: true })
    assert.deepStrictEqual(again, first)
    assert.strictEqual(counter.moduleReads, loaded)
    // Each module the first run loaded was read once; a new snapshot re-checks each once.
    assert.strictEqual(vm.loader.cachedModules, loaded)
    vm.call(stateViewFromReader(wrapped, 8n), balance, { maxGas: 2_000_000n, view: true })
    assert.strictEqual(counter.moduleReads, 2 * loaded)
    vm.call(stateViewFromReader(wrapped, 8n), balance, { maxGas: 2_000_000n, view: true })
    assert.strictEqual(counter.moduleReads, 2 * loaded)
    // No snapshot: what the run loads by name is read again.
    vm.call(stateViewFromReader(wrapped), balance, { maxGas: 2_000_000n, view: true })
    assert.isAbove(counter.moduleReads, 2 * loaded)
  })

  it("state is read once per snapshot; again for a new snapshot, and on every call without one", () => {
    const vm = new MoveVm()
    const { wrapped, counter } = counting()
    const first = vm.call(stateViewFromReader(wrapped, 1n), balance, { maxGas: 2_000_000n, view: true })
    const perRun = counter.reads
    assert.isAbove(perRun, 0)
    // The same snapshot: every read answered from the VM's state cache, with the same outcome and gas.
    const again = vm.call(stateViewFromReader(wrapped, 1n), balance, { maxGas: 2_000_000n, view: true })
    assert.deepStrictEqual(again, first)
    assert.strictEqual(counter.reads, perRun)
    // A new snapshot reads its state again.
    vm.call(stateViewFromReader(wrapped, 2n), balance, { maxGas: 2_000_000n, view: true })
    assert.strictEqual(counter.reads, 2 * perRun)
    // No snapshot: no promise that state is unchanged, so every run reads.
    const plain = vm.call(stateViewFromReader(wrapped), balance, { maxGas: 2_000_000n, view: true })
    vm.call(stateViewFromReader(wrapped), balance, { maxGas: 2_000_000n, view: true })
    assert.strictEqual(counter.reads, 4 * perRun)
    assert.deepStrictEqual(plain, first)
  })
})

describe("state keys built by concatenation", () => {
  it("table items' keys are BCS(StateKey::TableItem)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ maxLength: 300 }), (handle, key) => {
        let seen: Uint8Array | undefined
        const view = stateViewFromReader({
          get: (k) => {
            seen = k
            return undefined
          },
          getVersioned: () => undefined
        })
        view.tableItem(handle, key)
        const w = new BcsWriter()
        writeStateKey(w, { _tag: "TableItem", handle, key })
        assert.deepStrictEqual(seen, w.toBytes())
      })
    )
  })
})
