import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { Bcs } from "../../src/bcs/index.js"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import type { TypeTag } from "../../src/domain/TypeTag.js"
import { MAX_TYPE_TAG_NESTING, structTagCodec, typeTagCodec } from "../../src/domain/TypeTagCodec.js"

const vectors = (n: number): TypeTag => {
  let t: TypeTag = { _tag: "u8" }
  for (let i = 0; i < n; i++) t = { _tag: "vector", element: t }
  return t
}

describe("TypeTag BCS", () => {
  it("uses the reference's variant indices", () => {
    const index = (t: TypeTag) => Bcs.encode(typeTagCodec, t)[0]
    expect(index({ _tag: "bool" })).toBe(0)
    expect(index({ _tag: "u64" })).toBe(2)
    expect(index({ _tag: "signer" })).toBe(5)
    expect(index({ _tag: "u256" })).toBe(10)
    expect(index({ _tag: "function", args: [], results: [], abilities: 0 })).toBe(11)
    expect(index({ _tag: "i8" })).toBe(12)
    expect(index({ _tag: "i256" })).toBe(17)
  })

  it("encodes 0x1::aptos_coin::AptosCoin as the SDK does", () => {
    const t: TypeTag = {
      _tag: "struct",
      struct: { address: addressFromNumber(1), module: "aptos_coin", name: "AptosCoin", typeArgs: [] }
    }
    const hex = Buffer.from(Bcs.encode(typeTagCodec, t)).toString("hex")
    expect(hex).toBe(`07${"00".repeat(31)}010a6170746f735f636f696e094170746f73436f696e00`)
  })

  it("accepts nesting up to the reference's limit of 8 and rejects 9", () => {
    expect(MAX_TYPE_TAG_NESTING).toBe(8)
    expect(Result.isSuccess(Bcs.decode(typeTagCodec, Bcs.encode(typeTagCodec, vectors(8))))).toBe(true)
    const deep = Bcs.decode(typeTagCodec, Bcs.encode(typeTagCodec, vectors(9)))
    expect(Result.isFailure(deep) && deep.failure.reason).toMatch(/nesting/)
  })

  it("rejects a hostile, very deep type tag without recursing", () => {
    const bytes = new Uint8Array(1_000_000).fill(6)
    expect(Result.isFailure(Bcs.decode(typeTagCodec, bytes))).toBe(true)
  })

  it("rejects invalid identifiers, unknown variants and bad ability sets", () => {
    const tag = (module: string) =>
      Bcs.encode(structTagCodec, { address: addressFromNumber(1), module, name: "X", typeArgs: [] })
    expect(Result.isFailure(Bcs.decode(structTagCodec, tag("1abc")))).toBe(true)
    expect(Result.isFailure(Bcs.decode(structTagCodec, tag("a::b")))).toBe(true)
    expect(Result.isFailure(Bcs.decode(typeTagCodec, Uint8Array.of(18)))).toBe(true)
    expect(Result.isFailure(Bcs.decode(typeTagCodec, Uint8Array.of(11, 0, 0, 0x10)))).toBe(true)
    expect(Result.isSuccess(Bcs.decode(typeTagCodec, Uint8Array.of(11, 0, 0, 0x0f)))).toBe(true)
  })
})
