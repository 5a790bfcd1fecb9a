/**
 * compareStructTags / compareTypeTags against an independent model of the reference's derived
 * `Ord`: each tag written as bytes that compare the same way byte by byte (identifiers
 * NUL-terminated instead of length-prefixed, each list element prefixed by 1 and the list closed by
 * 0, so a shorter prefix sorts first), plus the total-order laws, and the one case the API shows:
 * the members of 0xa's object group.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { compareStructTags, compareTypeTags } from "../../src/domain/StructTagOrder.js"
import type { FunctionParamTag, StructTag, TypeTag } from "../../src/domain/TypeTag.js"
import { INDEX_BY_TAG } from "../../src/domain/TypeTagCodec.js"
import { parseStructTag, structTagEquals, structTagToString } from "../../src/domain/TypeTagString.js"
import * as Result from "effect/Result"
import { structTag, typeTag } from "./arbitraries.js"

const KIND: Record<FunctionParamTag["kind"], number> = { reference: 0, mutableReference: 1, value: 2 }

const list = <A>(xs: ReadonlyArray<A>, item: (x: A) => number[]): number[] => [...xs.flatMap((x) => [1, ...item(x)]), 0]
const text = (s: string): number[] => [...Buffer.from(s, "ascii"), 0]
const typeKey = (t: TypeTag): number[] => {
  const head = INDEX_BY_TAG[t._tag]
  switch (t._tag) {
    case "vector":
      return [head, ...typeKey(t.element)]
    case "struct":
      return [head, ...structKey(t.struct)]
    case "function": {
      const param = (p: FunctionParamTag) => [KIND[p.kind], ...typeKey(p.tag)]
      return [head, ...list(t.args, param), ...list(t.results, param), t.abilities]
    }
    default:
      return [head]
  }
}
const structKey = (s: StructTag): number[] => [
  ...s.address,
  ...text(s.module),
  ...text(s.name),
  ...list(s.typeArgs, typeKey)
]
const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0)
const modelCompare = (a: StructTag, b: StructTag) =>
  sign(Buffer.compare(Buffer.from(structKey(a)), Buffer.from(structKey(b))))

// Few addresses and names, so that ties on the leading fields (and the later fields) are common.
const smallStruct: fc.Arbitrary<StructTag> = structTag(3).chain((s) =>
  fc
    .record({
      address: fc.constantFrom(1, 3, 4, 10).map(addressFromNumber),
      module: fc.constantFrom("object", "fungible_asset", "a", "ab", "b", s.module),
      name: fc.constantFrom("ObjectCore", "Metadata", "ConcurrentSupply", "T", s.name)
    })
    .map((r) => ({ ...s, ...r }))
)

describe("compareStructTags", () => {
  it("agrees with the byte model of the derived Ord", () => {
    fc.assert(
      fc.property(smallStruct, smallStruct, (a, b) => {
        expect(sign(compareStructTags(a, b))).toBe(modelCompare(a, b))
      }),
      { numRuns: 2000 }
    )
  })

  it("is a total order: antisymmetric, 0 exactly for equal tags, transitive", () => {
    fc.assert(
      fc.property(smallStruct, smallStruct, smallStruct, (a, b, c) => {
        expect(sign(compareStructTags(a, b)) + sign(compareStructTags(b, a))).toBe(0)
        expect(compareStructTags(a, b) === 0).toBe(structTagEquals(a, b))
        expect(compareStructTags(a, a)).toBe(0)
        if (compareStructTags(a, b) <= 0 && compareStructTags(b, c) <= 0)
          expect(compareStructTags(a, c)).toBeLessThanOrEqual(0)
      }),
      { numRuns: 2000 }
    )
  })

  it("type tags: a variant's declaration index decides first, then its contents", () => {
    fc.assert(
      fc.property(typeTag(3), typeTag(3), (a, b) => {
        const expected = sign(Buffer.compare(Buffer.from(typeKey(a)), Buffer.from(typeKey(b))))
        expect(sign(compareTypeTags(a, b))).toBe(expected)
      })
    )
  })

  it("0xa's object group: ConcurrentSupply, Metadata, ObjectCore (the BCS order is ObjectCore, Metadata, ConcurrentSupply)", () => {
    const tags = [
      "0x1::object::ObjectCore",
      "0x1::fungible_asset::Metadata",
      "0x1::fungible_asset::ConcurrentSupply"
    ].map((s) => Result.getOrThrow(parseStructTag(s)))
    expect(tags.sort(compareStructTags).map(structTagToString)).toEqual([
      "0x1::fungible_asset::ConcurrentSupply",
      "0x1::fungible_asset::Metadata",
      "0x1::object::ObjectCore"
    ])
    // Shorter names first only when they are a prefix; type arguments after the name.
    const order = ["0x1::m::A<u8>", "0x1::m::AB", "0x1::m::A", "0x1::m::A<u64>", "0x1::m::A<vector<u8>>", "0x1::mm::A"]
      .map((s) => Result.getOrThrow(parseStructTag(s)))
      .sort(compareStructTags)
      .map(structTagToString)
    expect(order).toEqual([
      "0x1::m::A",
      "0x1::m::A<u8>",
      "0x1::m::A<u64>",
      "0x1::m::A<vector<u8>>",
      "0x1::m::AB",
      "0x1::mm::A"
    ])
  })
})
