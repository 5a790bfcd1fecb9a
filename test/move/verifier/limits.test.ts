/**
 * The limits pass (`limits.ts`): type parameters, parameters and results per handle, and each
 * type's depth and weighted size, at Aptos's production values. The size and depth are checked
 * against a recursive oracle on random tokens, deep ones included.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { primitiveTokens as P, type SignatureToken } from "../../../src/move/binary/SignatureToken.js"
import {
  MAX_FUNCTION_PARAMETERS,
  MAX_GENERIC_INSTANTIATION_LENGTH,
  MAX_TYPE_DEPTH,
  MAX_TYPE_NODES,
  typeLimitFailure,
  verifyLimits
} from "../../../src/move/verifier/limits.js"
import { functionHandle, moduleOf } from "../../support/moveAssembly.js"
import { USER } from "./support.js"

const vectorsDeep = (depth: number): SignatureToken => {
  let t: SignatureToken = P.U8
  for (let i = 1; i < depth; i++) t = { _tag: "Vector", element: t }
  return t
}
const structOf = (args: number): SignatureToken => ({
  _tag: "StructInstantiation",
  handle: 0,
  typeArgs: Array.from({ length: args }, () => ({ _tag: "Struct", handle: 0 }) as SignatureToken)
})

/** A module with one struct handle (`typeParameters` of them) and one function handle. */
const moduleWith = (o: {
  structTypeParameters?: number
  fnTypeParameters?: number
  parameters?: SignatureToken[]
  constant?: SignatureToken
}) =>
  moduleOf({
    moduleHandles: [{ address: 0, name: 0 }],
    structHandles: [
      {
        module: 0,
        name: 1,
        abilities: 0,
        typeParameters: Array.from({ length: o.structTypeParameters ?? 0 }, () => ({
          constraints: 0,
          isPhantom: false
        }))
      }
    ],
    functionHandles: [
      functionHandle(
        0,
        2,
        0,
        1,
        Array.from({ length: o.fnTypeParameters ?? 0 }, () => 0)
      )
    ],
    signatures: [o.parameters ?? [], []],
    identifiers: ["m", "S", "f"],
    addressIdentifiers: [USER],
    constantPool: o.constant === undefined ? [] : [{ type: o.constant, data: new Uint8Array() }]
  })

/** Size and depth the straightforward way. */
const measure = (t: SignatureToken, depth = 1): { size: number; depth: number } => {
  const children: SignatureToken[] =
    t._tag === "Vector"
      ? [t.element]
      : t._tag === "Reference" || t._tag === "MutableReference"
        ? [t.to]
        : t._tag === "StructInstantiation"
          ? [...t.typeArgs]
          : t._tag === "Function"
            ? [...t.args, ...t.results]
            : []
  const own = t._tag === "Struct" || t._tag === "StructInstantiation" || t._tag === "TypeParameter" ? 4 : 1
  return children.reduce(
    (acc, c) => {
      const m = measure(c, depth + 1)
      return { size: acc.size + m.size, depth: Math.max(acc.depth, m.depth) }
    },
    { size: own, depth }
  )
}

const token: fc.Arbitrary<SignatureToken> = fc.letrec<{ t: SignatureToken }>((tie) => ({
  t: fc.oneof(
    { depthSize: "large", withCrossShrink: true },
    fc.constantFrom<SignatureToken>(
      P.U8,
      P.U64,
      P.Address,
      P.Bool,
      { _tag: "Struct", handle: 0 },
      { _tag: "TypeParameter", index: 0 }
    ),
    tie("t").map((element) => ({ _tag: "Vector", element }) as SignatureToken),
    tie("t").map((to) => ({ _tag: "Reference", to }) as SignatureToken),
    fc
      .array(tie("t"), { minLength: 1, maxLength: 6 })
      .map((typeArgs) => ({ _tag: "StructInstantiation", handle: 0, typeArgs }) as SignatureToken),
    fc
      .tuple(fc.array(tie("t"), { maxLength: 3 }), fc.array(tie("t"), { maxLength: 2 }))
      .map(([args, results]) => ({ _tag: "Function", args, results, abilities: 0 }) as SignatureToken)
  )
})).t

describe("the limits pass", () => {
  it("types: 20 deep verify, 21 deep are refused; 128 weighted nodes verify, 132 are refused", () => {
    expect(typeLimitFailure(vectorsDeep(MAX_TYPE_DEPTH))).toBeUndefined()
    expect(typeLimitFailure(vectorsDeep(MAX_TYPE_DEPTH + 1))).toMatchObject({ status: "TOO_MANY_TYPE_NODES" })
    // A struct of 31 struct arguments weighs 4 + 31 × 4 = 128.
    expect(typeLimitFailure(structOf(31))).toBeUndefined()
    expect(typeLimitFailure(structOf(32))).toMatchObject({ status: "TOO_MANY_TYPE_NODES" })
    // Wherever the type is: a parameter list, a constant.
    expect(verifyLimits(moduleWith({ parameters: [structOf(32)] }))).toMatchObject({ status: "TOO_MANY_TYPE_NODES" })
    expect(verifyLimits(moduleWith({ constant: vectorsDeep(MAX_TYPE_DEPTH + 1) }))).toMatchObject({
      status: "TOO_MANY_TYPE_NODES"
    })
  })

  it("handles: 32 type parameters and 128 parameters verify; one more of either is refused", () => {
    const n = MAX_GENERIC_INSTANTIATION_LENGTH
    expect(verifyLimits(moduleWith({ structTypeParameters: n, fnTypeParameters: n }))).toBeUndefined()
    expect(verifyLimits(moduleWith({ structTypeParameters: n + 1 }))).toMatchObject({
      status: "TOO_MANY_TYPE_PARAMETERS"
    })
    expect(verifyLimits(moduleWith({ fnTypeParameters: n + 1 }))).toMatchObject({ status: "TOO_MANY_TYPE_PARAMETERS" })
    const params = (k: number) => Array.from({ length: k }, () => P.U8)
    expect(verifyLimits(moduleWith({ parameters: params(MAX_FUNCTION_PARAMETERS) }))).toBeUndefined()
    expect(verifyLimits(moduleWith({ parameters: params(MAX_FUNCTION_PARAMETERS + 1) }))).toMatchObject({
      status: "TOO_MANY_PARAMETERS"
    })
  })

  it("on random types the verdict is the oracle's (size ≤ 128 and depth ≤ 20), and deep ones do not overflow", () => {
    fc.assert(
      fc.property(token, (t) => {
        const m = measure(t)
        expect(typeLimitFailure(t) === undefined).toBe(m.size <= MAX_TYPE_NODES && m.depth <= MAX_TYPE_DEPTH)
      }),
      { numRuns: 2000, seed: 0x1111 }
    )
    // 200,000 deep: refused without recursion.
    expect(typeLimitFailure(vectorsDeep(200_000))).toMatchObject({ status: "TOO_MANY_TYPE_NODES" })
  })
})
