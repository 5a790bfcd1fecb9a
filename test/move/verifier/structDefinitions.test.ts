/**
 * The struct-definition pass: a struct declares only abilities its fields allow (type safety trusts
 * the declaration: `Box has copy { c: Coin<AptosCoin> }` would let a module copy a coin), and no
 * struct contains itself.
 */
import { describe, expect, it } from "vitest"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import { Ability, type CompiledModule, type StructDefinition } from "../../../src/move/binary/CompiledModule.js"
import { primitiveTokens as P, type SignatureToken } from "../../../src/move/binary/SignatureToken.js"
import { verifyStructDefinitions } from "../../../src/move/verifier/structDefinitions.js"
import { moduleOf } from "../../support/moveAssembly.js"

const coinOfApt: SignatureToken = { _tag: "StructInstantiation", handle: 1, typeArgs: [{ _tag: "Struct", handle: 2 }] }

/**
 * `0xcafe::m` whose struct handles 0 and 3 are its own (`Box` with `abilities` and the given
 * type parameters, `Other` with `otherAbilities`), 1 and 2 `coin::Coin` (store) and
 * `aptos_coin::AptosCoin` (key), with the given fields.
 */
const moduleWith = (o: {
  abilities: number
  fields: SignatureToken[]
  typeParameters?: number
  otherFields?: SignatureToken[]
  otherAbilities?: number
}): CompiledModule => {
  const declared = (structHandle: number, fields: SignatureToken[]): StructDefinition => ({
    structHandle,
    fieldInformation: { _tag: "Declared", fields: fields.map((type, i) => ({ name: 6 + i, type })) }
  })
  return moduleOf({
    moduleHandles: [
      { address: 0, name: 0 },
      { address: 1, name: 1 },
      { address: 1, name: 2 }
    ],
    structHandles: [
      {
        module: 0,
        name: 3,
        abilities: o.abilities,
        typeParameters: Array.from({ length: o.typeParameters ?? 0 }, () => ({ constraints: 0, isPhantom: false }))
      },
      { module: 1, name: 4, abilities: Ability.Store, typeParameters: [{ constraints: 0, isPhantom: true }] },
      { module: 2, name: 5, abilities: Ability.Key, typeParameters: [] },
      { module: 0, name: 9, abilities: o.otherAbilities ?? 0, typeParameters: [] }
    ],
    functionHandles: [],
    signatures: [],
    identifiers: ["m", "coin", "aptos_coin", "Box", "Coin", "AptosCoin", "f0", "f1", "f2", "Other"],
    addressIdentifiers: [addressFromNumber(0xcafe), addressFromNumber(1)],
    structDefs: [declared(0, o.fields), ...(o.otherFields === undefined ? [] : [declared(3, o.otherFields)])]
  })
}

describe("field abilities", () => {
  it("a struct declaring copy or drop over a coin is refused; store over a coin verifies", () => {
    expect(verifyStructDefinitions(moduleWith({ abilities: Ability.Copy, fields: [coinOfApt] }))).toMatchObject({
      status: "FIELD_MISSING_TYPE_ABILITY"
    })
    expect(verifyStructDefinitions(moduleWith({ abilities: Ability.Drop, fields: [P.U64, coinOfApt] }))).toMatchObject({
      status: "FIELD_MISSING_TYPE_ABILITY"
    })
    expect(
      verifyStructDefinitions(moduleWith({ abilities: Ability.Store | Ability.Key, fields: [coinOfApt] }))
    ).toBeUndefined()
  })

  it("key needs store of every field: a signer (drop only) is refused", () => {
    expect(verifyStructDefinitions(moduleWith({ abilities: Ability.Key, fields: [P.Signer] }))).toMatchObject({
      status: "FIELD_MISSING_TYPE_ABILITY"
    })
  })

  it("type parameters count as having every ability (an instance is narrowed by its arguments)", () => {
    const t: SignatureToken = { _tag: "TypeParameter", index: 0 }
    expect(
      verifyStructDefinitions(
        moduleWith({
          abilities: Ability.Copy | Ability.Drop | Ability.Store,
          fields: [t, { _tag: "Vector", element: t }],
          typeParameters: 1
        })
      )
    ).toBeUndefined()
  })

  it("a field of another struct of the module is judged by that struct's declared abilities", () => {
    const other: SignatureToken = { _tag: "Struct", handle: 3 }
    expect(
      verifyStructDefinitions(
        moduleWith({ abilities: Ability.Copy, fields: [other], otherFields: [P.U64], otherAbilities: Ability.Drop })
      )
    ).toMatchObject({ status: "FIELD_MISSING_TYPE_ABILITY" })
    expect(
      verifyStructDefinitions(
        moduleWith({ abilities: Ability.Copy, fields: [other], otherFields: [P.U64], otherAbilities: Ability.Copy })
      )
    ).toBeUndefined()
  })
})

describe("recursion", () => {
  it("a struct holding a vector of itself, or two structs holding each other, are refused", () => {
    const self: SignatureToken = { _tag: "Struct", handle: 0 }
    const other: SignatureToken = { _tag: "Struct", handle: 3 }
    expect(
      verifyStructDefinitions(moduleWith({ abilities: 0, fields: [{ _tag: "Vector", element: self }] }))
    ).toMatchObject({ status: "RECURSIVE_STRUCT_DEFINITION" })
    expect(verifyStructDefinitions(moduleWith({ abilities: 0, fields: [other], otherFields: [self] }))).toMatchObject({
      status: "RECURSIVE_STRUCT_DEFINITION"
    })
    expect(verifyStructDefinitions(moduleWith({ abilities: 0, fields: [other], otherFields: [P.U64] }))).toBeUndefined()
  })

  it("a struct inside a type argument counts: Coin<Box> in Box", () => {
    const coinOfBox: SignatureToken = {
      _tag: "StructInstantiation",
      handle: 1,
      typeArgs: [{ _tag: "Struct", handle: 0 }]
    }
    expect(verifyStructDefinitions(moduleWith({ abilities: 0, fields: [coinOfBox] }))).toMatchObject({
      status: "RECURSIVE_STRUCT_DEFINITION"
    })
  })
})

describe("names", () => {
  it("two fields of one name are DUPLICATE_ELEMENT; so are two variants, or two fields of one variant", () => {
    const m = moduleWith({ abilities: 0, fields: [P.U64, P.U8] })
    expect(verifyStructDefinitions(m)).toBeUndefined()
    const fields = [
      { name: 6, type: P.U64 },
      { name: 6, type: P.U8 }
    ]
    const twice = { ...m, structDefs: [{ structHandle: 0, fieldInformation: { _tag: "Declared" as const, fields } }] }
    expect(verifyStructDefinitions(twice)).toMatchObject({ status: "DUPLICATE_ELEMENT" })
    const variants = (a: number, b: number, inner: typeof fields) => ({
      ...m,
      structDefs: [
        {
          structHandle: 0,
          fieldInformation: {
            _tag: "DeclaredVariants" as const,
            variants: [
              { name: a, fields: inner },
              { name: b, fields: [] }
            ]
          }
        }
      ]
    })
    expect(verifyStructDefinitions(variants(7, 8, [fields[0]!]))).toBeUndefined()
    expect(verifyStructDefinitions(variants(7, 7, [fields[0]!]))).toMatchObject({ status: "DUPLICATE_ELEMENT" })
    expect(verifyStructDefinitions(variants(7, 8, fields))).toMatchObject({ status: "DUPLICATE_ELEMENT" })
  })

  it("a struct without fields is ZERO_SIZED_STRUCT; a variant without fields is fine", () => {
    expect(verifyStructDefinitions(moduleWith({ abilities: 0, fields: [] }))).toMatchObject({
      status: "ZERO_SIZED_STRUCT"
    })
    expect(verifyStructDefinitions(moduleWith({ abilities: 0, fields: [P.Bool] }))).toBeUndefined()
  })
})
