import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { Address, HexBytes, I64, I128, U8, U32, U64, U128, U256 } from "../../src/domain/integers.js"

const decode = <S extends Schema.Top>(s: S, input: unknown) =>
  Schema.decodeUnknownResult(s as any)(input) as Result.Result<S["Type"], unknown>
const encode = <S extends Schema.Top>(s: S, value: S["Type"]) =>
  Schema.encodeUnknownResult(s as any)(value) as Result.Result<unknown, unknown>
const ok = <A>(r: Result.Result<A, unknown>): A => {
  if (Result.isFailure(r)) throw new Error(String(r.failure))
  return r.success
}

describe("integer schemas", () => {
  it("decode decimal strings to bigint and encode back", () => {
    expect(ok(decode(U64, "18446744073709551615"))).toBe(2n ** 64n - 1n)
    expect(ok(decode(U64, "0"))).toBe(0n)
    expect(ok(decode(U64, "+7"))).toBe(7n)
    expect(ok(decode(U128, "340282366920938463463374607431768211455"))).toBe(2n ** 128n - 1n)
    expect(ok(decode(I64, "-3"))).toBe(-3n)
    expect(ok(encode(U64, 5n))).toBe("5")
    expect(ok(encode(I128, -(2n ** 127n)))).toBe((-(2n ** 127n)).toString())
  })

  it("reject JSON numbers, out-of-range values and junk", () => {
    for (const bad of [5, "18446744073709551616", "-1", "1.5", "", " 1", "0x10", "1e3", null, true]) {
      expect(Result.isFailure(decode(U64, bad)), String(bad)).toBe(true)
    }
    expect(Result.isFailure(decode(I64, "9223372036854775808"))).toBe(true)
    expect(Result.isFailure(decode(U256, "1".repeat(200)))).toBe(true)
  })

  it("round-trip every value in range", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), (n) => {
        expect(ok(decode(U256, ok(encode(U256, n))))).toBe(n)
      })
    )
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 127n), max: 2n ** 127n - 1n }), (n) => {
        expect(ok(decode(I128, ok(encode(I128, n))))).toBe(n)
      })
    )
    fc.assert(fc.property(fc.anything(), (x) => void decode(U64, x)))
  })

  it("small integers are JSON numbers", () => {
    expect(ok(decode(U8, 255))).toBe(255)
    expect(Result.isFailure(decode(U8, 256))).toBe(true)
    expect(Result.isFailure(decode(U8, "1"))).toBe(true)
    expect(Result.isFailure(decode(U32, 1.5))).toBe(true)
    expect(ok(decode(U32, 4294967295))).toBe(4294967295)
  })
})

describe("Address and HexBytes schemas", () => {
  it("parse relaxed addresses and print them short", () => {
    expect(ok(decode(Address, "0x1"))).toEqual(addressFromNumber(1))
    expect(ok(decode(Address, "A550C18"))).toEqual(addressFromNumber(0xa550c18))
    expect(ok(encode(Address, addressFromNumber(0xa550c18)))).toBe("0xa550c18")
    expect(ok(encode(Address, addressFromNumber(0)))).toBe("0x0")
    for (const bad of ["", "0x", "0xg", "1".repeat(65), 1])
      expect(Result.isFailure(decode(Address, bad)), String(bad)).toBe(true)
  })

  it("hex bytes in either case, out as 0x + lowercase", () => {
    expect(ok(decode(HexBytes, "0xABcd"))).toEqual(Uint8Array.of(0xab, 0xcd))
    expect(ok(decode(HexBytes, "abcd"))).toEqual(Uint8Array.of(0xab, 0xcd))
    expect(ok(encode(HexBytes, new Uint8Array()))).toBe("0x")
    expect(Result.isFailure(decode(HexBytes, "0xabc"))).toBe(true)
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (b) => {
        expect(ok(decode(HexBytes, ok(encode(HexBytes, b))))).toEqual(b)
      })
    )
  })
})
