/**
 * The constants pass (`constants.ts`): a constant is of a primitive (not signer) or vector type and
 * its bytes are exactly one BCS value of it. Random types with values written by `BcsWriter` are
 * accepted; the same bytes one byte short or long, a bool that is not 0 or 1, and random garbage are
 * refused with MALFORMED_CONSTANT_DATA, never a throw.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { BcsWriter } from "../../../src/bcs/index.js"
import { primitiveTokens as P, type SignatureToken } from "../../../src/move/binary/SignatureToken.js"
import { verifyConstants } from "../../../src/move/verifier/constants.js"

const SIZES: ReadonlyArray<readonly [SignatureToken, number]> = [
  [P.U8, 1],
  [P.U16, 2],
  [P.U32, 4],
  [P.U64, 8],
  [P.U128, 16],
  [P.U256, 32],
  [P.I8, 1],
  [P.I64, 8],
  [P.Address, 32]
]

/** A constant type: a primitive, or vectors of one (at most four deep). */
const constantType: fc.Arbitrary<SignatureToken> = fc
  .tuple(fc.constantFrom<SignatureToken>(P.Bool, ...SIZES.map(([t]) => t)), fc.integer({ min: 0, max: 4 }))
  .map(([leaf, depth]) => {
    let t = leaf
    for (let i = 0; i < depth; i++) t = { _tag: "Vector", element: t }
    return t
  })

/** One value of `type`, as BCS bytes written here. */
const bytesOfType = (type: SignatureToken): fc.Arbitrary<Uint8Array> => {
  if (type._tag === "Bool") return fc.boolean().map((b) => Uint8Array.of(b ? 1 : 0))
  if (type._tag === "Vector")
    return fc.array(bytesOfType(type.element), { maxLength: 3 }).map((items) => {
      const w = new BcsWriter(64).uleb128(items.length)
      for (const item of items) w.fixed(item)
      return w.toBytes()
    })
  const n = SIZES.find(([t]) => t === type)![1]
  return fc.uint8Array({ minLength: n, maxLength: n })
}

/** A constant type and one value of it. */
const typedValue = constantType.chain((type) => bytesOfType(type).map((bytes) => ({ type, bytes })))

const pool = (type: SignatureToken, data: Uint8Array) => ({ constantPool: [{ type, data }] })

describe("the constants pass", () => {
  it("values of constant types verify; one byte short or one byte more is MALFORMED_CONSTANT_DATA", () => {
    fc.assert(
      fc.property(typedValue, fc.integer({ min: 0, max: 255 }), ({ type, bytes }, extra) => {
        expect(verifyConstants(pool(type, bytes))).toBeUndefined()
        expect(verifyConstants(pool(type, bytes.subarray(0, bytes.length - 1)))).toMatchObject({
          status: "MALFORMED_CONSTANT_DATA"
        })
        expect(verifyConstants(pool(type, Uint8Array.of(...bytes, extra)))).toMatchObject({
          status: "MALFORMED_CONSTANT_DATA"
        })
      }),
      { numRuns: 1000, seed: 0xc0 }
    )
  })

  it("a bool other than 0 or 1, and a vector claiming more elements than its bytes hold, are malformed", () => {
    expect(verifyConstants(pool(P.Bool, Uint8Array.of(2)))).toMatchObject({ status: "MALFORMED_CONSTANT_DATA" })
    const many = new BcsWriter(8).uleb128(1_000_000).u8(0).toBytes()
    expect(verifyConstants(pool({ _tag: "Vector", element: P.U8 }, many))).toMatchObject({
      status: "MALFORMED_CONSTANT_DATA"
    })
  })

  it("signer, struct, reference, type-parameter and function constants are INVALID_CONSTANT_TYPE", () => {
    const refused: SignatureToken[] = [
      P.Signer,
      { _tag: "Struct", handle: 0 },
      { _tag: "Vector", element: { _tag: "Struct", handle: 0 } },
      { _tag: "Reference", to: P.U64 },
      { _tag: "TypeParameter", index: 0 },
      { _tag: "Function", args: [], results: [], abilities: 0 }
    ]
    for (const t of refused)
      expect(verifyConstants(pool(t, Uint8Array.of(0)))).toMatchObject({ status: "INVALID_CONSTANT_TYPE" })
  })

  it("garbage bytes under random constant types are answered, never thrown", () => {
    fc.assert(
      fc.property(typedValue, fc.uint8Array({ maxLength: 64 }), ({ type }, data) => {
        const f = verifyConstants(pool(type, data))
        expect(f === undefined || f.status === "MALFORMED_CONSTANT_DATA").toBe(true)
      }),
      { numRuns: 2000, seed: 0xc1 }
    )
  })
})
