import fc from "fast-check"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { toHex } from "../../../src/bcs/index.js"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import { bcsToJson } from "../../../src/move/json/bcsToJson.js"
import { jsonToBcs } from "../../../src/move/json/jsonToBcs.js"
import { Layouts, type MoveTypeLayout } from "../../../src/move/layout/MoveTypeLayout.js"
import { layoutArb, outputValueArb, toInputForm } from "./arbitraries.js"

const ok = <A, E>(r: Result.Result<A, E>): A => {
  if (Result.isFailure(r)) throw new Error(`expected success, got ${JSON.stringify(r.failure)}`)
  return r.success
}
const err = <A, E extends { message: string }>(r: Result.Result<A, E>): string => {
  if (Result.isSuccess(r))
    throw new Error(
      `expected failure, got ${JSON.stringify(r.success, (_, v) => (typeof v === "bigint" ? String(v) : v))}`
    )
  return r.failure.message
}
const hexOf = (r: Result.Result<Uint8Array, unknown>) => toHex(ok(r))

const vec = (element: MoveTypeLayout): MoveTypeLayout => ({ _tag: "vector", element })
const ONE = addressFromNumber(1)
const str: MoveTypeLayout = {
  _tag: "struct",
  struct: { address: ONE, module: "string", name: "String", typeArgs: [] },
  fields: [{ name: "bytes", layout: vec(Layouts.u8) }]
}

describe("jsonToBcs / bcsToJson round trip", () => {
  it("JSON → BCS → JSON is the identity on output-form values", () => {
    fc.assert(
      fc.property(
        layoutArb.chain((l) => fc.tuple(fc.constant(l), outputValueArb(l))),
        ([layout, out]) => {
          const bytes = ok(jsonToBcs(layout, toInputForm(layout, out)))
          expect(ok(bcsToJson(layout, bytes))).toEqual(out)
          // And BCS → JSON → BCS gives back the same bytes.
          const again = ok(jsonToBcs(layout, toInputForm(layout, ok(bcsToJson(layout, bytes)))))
          expect(toHex(again)).toBe(toHex(bytes))
        }
      ),
      { numRuns: 500 }
    )
  })

  it("output keys are sorted (BTreeMap order), __variant__ first", () => {
    const layout: MoveTypeLayout = {
      _tag: "enum",
      struct: { address: ONE, module: "m", name: "E", typeArgs: [] },
      variants: [
        {
          name: "Value",
          fields: [
            { name: "z", layout: Layouts.u8 },
            { name: "a", layout: Layouts.u8 }
          ]
        }
      ]
    }
    const out = ok(bcsToJson(layout, ok(jsonToBcs(layout, { Value: { z: 1, a: 2 } }))))
    expect(Object.keys(out as object)).toEqual(["__variant__", "a", "z"])
    expect(JSON.stringify(out)).toBe('{"__variant__":"Value","a":2,"z":1}')
  })
})

describe("bcsToJson object keys", () => {
  const keysInByteOrder = (v: unknown): boolean => {
    if (Array.isArray(v)) return v.every(keysInByteOrder)
    if (v === null || typeof v !== "object") return true
    const keys = Object.keys(v)
    const sorted = [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    return keys.every((k, i) => k === sorted[i]) && Object.values(v).every(keysInByteOrder)
  }

  it("every object's keys come in byte order, at every depth", () => {
    fc.assert(
      fc.property(
        layoutArb.chain((l) => fc.tuple(fc.constant(l), outputValueArb(l))),
        ([layout, out]) => {
          const bytes = ok(jsonToBcs(layout, toInputForm(layout, out)))
          expect(keysInByteOrder(ok(bcsToJson(layout, bytes)))).toBe(true)
        }
      ),
      { numRuns: 300 }
    )
  })

  it("sorts __variant__ among field names by bytes (upper case and digits before it, lower case after)", () => {
    const layout: MoveTypeLayout = {
      _tag: "enum",
      struct: { address: ONE, module: "m", name: "E", typeArgs: [] },
      variants: [
        { name: "Empty", fields: [] },
        {
          name: "V",
          fields: [
            { name: "b", layout: Layouts.u8 },
            { name: "Z", layout: Layouts.u8 },
            { name: "_a", layout: Layouts.u8 },
            { name: "A1", layout: Layouts.u8 }
          ]
        }
      ]
    }
    const out = ok(bcsToJson(layout, Uint8Array.of(1, 1, 2, 3, 4)))
    expect(JSON.stringify(out)).toBe('{"A1":4,"Z":2,"__variant__":"V","_a":3,"b":1}')
    // The same field list read twice (its key order is computed once): the same object.
    expect(ok(bcsToJson(layout, Uint8Array.of(1, 1, 2, 3, 4)))).toEqual(out)
    expect(JSON.stringify(ok(bcsToJson(layout, Uint8Array.of(0))))).toBe('{"__variant__":"Empty"}')
  })

  it("keeps a field named __proto__ (a valid Move identifier) as a field, not the object's prototype", () => {
    const inner: MoveTypeLayout = {
      _tag: "struct",
      struct: { address: ONE, module: "m", name: "Inner", typeArgs: [] },
      fields: [{ name: "x", layout: Layouts.u8 }]
    }
    const layout: MoveTypeLayout = {
      _tag: "struct",
      struct: { address: ONE, module: "m", name: "S", typeArgs: [] },
      fields: [
        { name: "__proto__", layout: inner },
        { name: "a", layout: Layouts.u8 }
      ]
    }
    const out = ok(bcsToJson(layout, Uint8Array.of(7, 9))) as Record<string, unknown>
    expect(JSON.stringify(out)).toBe('{"__proto__":{"x":7},"a":9}')
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(Object.keys(out)).toEqual(["__proto__", "a"])
  })
})

describe("hostile input never throws", () => {
  it("garbage JSON against random layouts gives a Result", () => {
    fc.assert(
      fc.property(layoutArb, fc.jsonValue(), (layout, v) => {
        const r = jsonToBcs(layout, v)
        expect(Result.isResult(r)).toBe(true)
      }),
      { numRuns: 1000 }
    )
  })

  it("garbage BCS against random layouts gives a Result", () => {
    fc.assert(
      fc.property(layoutArb, fc.uint8Array({ maxLength: 200 }), (layout, bytes) => {
        const r = bcsToJson(layout, bytes)
        expect(Result.isResult(r)).toBe(true)
      }),
      { numRuns: 1000 }
    )
  })

  it("rejects nesting deeper than the limit, both ways, without a stack overflow", () => {
    let layout: MoveTypeLayout = Layouts.u64
    let value: unknown = "1"
    for (let i = 0; i < 10_000; i++) {
      layout = vec(layout)
      value = [value]
    }
    expect(err(jsonToBcs(layout, value))).toMatch(/nested deeper than 128/)
    const deepBytes = new Uint8Array(10_001).fill(1)
    expect(err(bcsToJson(layout, deepBytes))).toMatch(/nested deeper than 128/)
  })

  it("walks containers with an explicit stack: 128 levels and 200,000 elements convert both ways", () => {
    let layout: MoveTypeLayout = Layouts.u64
    let value: unknown = "7"
    for (let i = 0; i < 128; i++) {
      layout = vec(layout)
      value = [value]
    }
    const deep = Result.getOrThrow(jsonToBcs(layout, value))
    expect(Result.getOrThrow(bcsToJson(layout, deep))).toEqual(value)
    const wide = vec(vec(Layouts.u64))
    const many = Array.from({ length: 200_000 }, (_, i) => [String(i)])
    const bytes = Result.getOrThrow(jsonToBcs(wide, many))
    expect(Result.getOrThrow(bcsToJson(wide, bytes))).toEqual(many)
  })

  it("rejects values over the size limit", () => {
    const limits = { maxDepth: 128, maxBytes: 1000, maxVectorLength: 100_000 }
    expect(err(jsonToBcs(vec(Layouts.u64), Array(200).fill("1"), limits))).toMatch(/larger than 1000 bytes/)
    expect(err(jsonToBcs(vec(Layouts.u8), "0x" + "ab".repeat(2000), limits))).toMatch(/larger than 1000 bytes/)
    expect(err(bcsToJson(vec(Layouts.u8), new Uint8Array(5000), limits))).toMatch(/larger than 1000 bytes/)
  })

  it("a vector count larger than the bytes left fails before allocating", () => {
    expect(err(bcsToJson(vec(Layouts.u64), new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x0f])))).toMatch(/exceeds/)
  })
})

describe("jsonToBcs rules (aptos-api-behaviour §1.11)", () => {
  it("small integers are JSON numbers, range-checked; strings rejected", () => {
    expect(hexOf(jsonToBcs(Layouts.u8, 255))).toBe("ff")
    expect(hexOf(jsonToBcs(Layouts.u16, 258))).toBe("0201")
    expect(hexOf(jsonToBcs(Layouts.i8, -1))).toBe("ff")
    expect(hexOf(jsonToBcs(Layouts.i32, -2))).toBe("feffffff")
    expect(err(jsonToBcs(Layouts.u8, 256))).toBe("invalid value: integer `256`, expected u8")
    expect(err(jsonToBcs(Layouts.u8, -1))).toBe("invalid value: integer `-1`, expected u8")
    expect(err(jsonToBcs(Layouts.u32, "1"))).toBe('invalid type: string "1", expected u32')
    expect(err(jsonToBcs(Layouts.u8, 1.5))).toBe("invalid type: floating point `1.5`, expected u8")
  })

  it("wide integers are decimal strings only; numbers rejected", () => {
    expect(hexOf(jsonToBcs(Layouts.u64, "18446744073709551615"))).toBe("ffffffffffffffff")
    expect(hexOf(jsonToBcs(Layouts.i64, "-3"))).toBe("fdffffffffffffff")
    expect(err(jsonToBcs(Layouts.u64, 1))).toBe("invalid type: number, expected a string")
    expect(err(jsonToBcs(Layouts.u64, "18446744073709551616"))).toBe("number too large to fit in target type")
    expect(err(jsonToBcs(Layouts.u128, "-1"))).toBe("invalid digit found in string")
    expect(err(jsonToBcs(Layouts.u256, "0x10"))).toBe("invalid digit found in string")
    expect(err(jsonToBcs(Layouts.u64, ""))).toBe("cannot parse integer from empty string")
    expect(err(jsonToBcs(Layouts.i128, "-170141183460469231731687303715884105729"))).toBe(
      "number too small to fit in target type"
    )
  })

  it("addresses in every accepted spelling", () => {
    const one = "00".repeat(31) + "01"
    for (const s of ["0x1", "1", "0x01", "0X1", "0x" + one, one]) expect(hexOf(jsonToBcs(Layouts.address, s))).toBe(one)
    expect(hexOf(jsonToBcs(Layouts.address, "0xABC"))).toBe("00".repeat(30) + "0abc")
    expect(err(jsonToBcs(Layouts.address, "0x1i"))).toBe(
      "Invalid account address: Hex characters are invalid: Invalid character 'i' at position 63"
    )
    expect(err(jsonToBcs(Layouts.address, "0xzz1"))).toBe(
      "Invalid account address: Hex characters are invalid: Invalid character 'z' at position 61"
    )
    expect(err(jsonToBcs(Layouts.address, "0x"))).toMatch(/too short/)
    expect(err(jsonToBcs(Layouts.address, "0x" + "1".repeat(65)))).toMatch(/too long/)
    expect(err(jsonToBcs(Layouts.address, 1))).toBe("invalid type: number, expected a string")
  })

  it("vector<u8> is a hex string only; other vectors are arrays", () => {
    expect(hexOf(jsonToBcs(vec(Layouts.u8), "0xABcd"))).toBe("02abcd")
    expect(hexOf(jsonToBcs(vec(Layouts.u8), "abcd"))).toBe("02abcd")
    expect(hexOf(jsonToBcs(vec(Layouts.u8), "0x"))).toBe("00")
    expect(err(jsonToBcs(vec(Layouts.u8), [1, 2]))).toBe("invalid type: sequence, expected a string")
    expect(err(jsonToBcs(vec(Layouts.u8), "0xabc"))).toMatch(/Odd number of digits/)
    expect(err(jsonToBcs(vec(Layouts.u8), "0x0xab"))).toMatch(/Invalid character 'x' at position 1/)
    expect(hexOf(jsonToBcs(vec(vec(Layouts.u8)), ["0x01", "0x0203"]))).toBe("020101020203")
    expect(hexOf(jsonToBcs(vec(Layouts.bool), [true, false]))).toBe("020100")
    expect(err(jsonToBcs(vec(Layouts.u64), "1"))).toMatch(/^expected vector<u64>/)
  })

  it("String, Option, Object, structs and enums", () => {
    expect(hexOf(jsonToBcs(str, "hé"))).toBe("0368c3a9")
    expect(err(jsonToBcs(str, 1))).toBe("failed to parse string::String.")
    const opt: MoveTypeLayout = {
      _tag: "struct",
      struct: { address: ONE, module: "option", name: "Option", typeArgs: [{ _tag: "u64" }] },
      fields: [{ name: "vec", layout: vec(Layouts.u64) }]
    }
    expect(hexOf(jsonToBcs(opt, { vec: [] }))).toBe("00")
    expect(hexOf(jsonToBcs(opt, { vec: ["7"] }))).toBe("010700000000000000")
    expect(err(jsonToBcs(opt, { vec: ["1", "2"] }))).toMatch(/at most one/)
    const obj: MoveTypeLayout = {
      _tag: "struct",
      struct: { address: ONE, module: "object", name: "Object", typeArgs: [{ _tag: "address" }] },
      fields: [{ name: "inner", layout: Layouts.address }]
    }
    expect(hexOf(jsonToBcs(obj, "0xa"))).toBe("00".repeat(31) + "0a")
    expect(ok(bcsToJson(obj, ok(jsonToBcs(obj, "0xa"))))).toEqual({ inner: "0xa" })
    expect(hexOf(jsonToBcs(obj, { inner: "0xa" }))).toBe("00".repeat(31) + "0a")
    const point: MoveTypeLayout = {
      _tag: "struct",
      struct: { address: ONE, module: "m", name: "P", typeArgs: [] },
      fields: [
        { name: "x", layout: Layouts.u64 },
        { name: "y", layout: Layouts.u64 }
      ]
    }
    expect(hexOf(jsonToBcs(point, { y: "2", x: "1", extra: true }))).toBe("0100000000000000" + "0200000000000000")
    expect(err(jsonToBcs(point, { x: "1" }))).toBe("field y not found.")
    expect(err(jsonToBcs(point, [1]))).toBe("Expecting a JSON Map for struct.")
    const color: MoveTypeLayout = {
      _tag: "enum",
      struct: { address: ONE, module: "m", name: "Color", typeArgs: [] },
      variants: [
        { name: "Red", fields: [] },
        { name: "Custom", fields: [{ name: "r", layout: Layouts.u8 }] }
      ]
    }
    expect(hexOf(jsonToBcs(color, { Red: {} }))).toBe("00")
    expect(hexOf(jsonToBcs(color, { Custom: { r: 100 } }))).toBe("0164")
    expect(ok(bcsToJson(color, new Uint8Array([1, 100])))).toEqual({ __variant__: "Custom", r: 100 })
    expect(err(jsonToBcs(color, { Blue: {} }))).toMatch(/variant Blue not found/)
    expect(err(jsonToBcs(Layouts.signer, "0x1"))).toMatch(/unexpected move type signer/)
  })
})

describe("bcsToJson rules (aptos-api-behaviour §1.10)", () => {
  it("renders integers, bytes and strings as the reference does", () => {
    expect(ok(bcsToJson(Layouts.u32, new Uint8Array([1, 0, 0, 0])))).toBe(1)
    expect(ok(bcsToJson(Layouts.i16, new Uint8Array([0xff, 0xff])))).toBe(-1)
    expect(ok(bcsToJson(Layouts.u64, new Uint8Array(8).fill(0xff)))).toBe("18446744073709551615")
    expect(ok(bcsToJson(Layouts.i64, new Uint8Array(8).fill(0xff)))).toBe("-1")
    expect(ok(bcsToJson(vec(Layouts.u8), new Uint8Array([2, 0xab, 0xcd])))).toBe("0xabcd")
    expect(ok(bcsToJson(Layouts.address, addressFromNumber(0xa550c18)))).toBe("0xa550c18")
    expect(ok(bcsToJson(str, new Uint8Array([2, 0xff, 0xfe])))).toBe("Unparsable utf-8 0xfffe")
    expect(err(bcsToJson(Layouts.bool, new Uint8Array([2])))).toMatch(/invalid bool/)
    expect(err(bcsToJson(Layouts.u8, new Uint8Array([1, 2])))).toMatch(/trailing/)
  })

  it("renders a closure with its function name, mask and captured values", () => {
    // version 1, module 0x1::m, fun f, no type args, mask 0b1, captured: layout u64 (index 2), value 5
    const bytes = new Uint8Array([1, 0, ...ONE, 1, 0x6d, 1, 0x66, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 5, 0, 0, 0, 0, 0, 0, 0])
    expect(ok(bcsToJson({ _tag: "function", signature: "|u64|" }, bytes))).toEqual({
      __captured__: ["5"],
      __fun_name__: "0x1::m::f",
      __mask__: "1"
    })
  })
})
