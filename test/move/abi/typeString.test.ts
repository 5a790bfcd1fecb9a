import { describe, expect, it } from "vitest"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import { abilityNames, typeString } from "../../../src/move/abi/typeString.js"
import type { CommonTables } from "../../../src/move/binary/CompiledModule.js"
import { primitiveTokens as P, type SignatureToken } from "../../../src/move/binary/SignatureToken.js"

const unit: CommonTables = {
  version: 10,
  moduleHandles: [{ address: 0, name: 0 }],
  structHandles: [
    { module: 0, name: 1, abilities: 0, typeParameters: [{ constraints: 0, isPhantom: false }] },
    { module: 0, name: 2, abilities: 0, typeParameters: [] }
  ],
  functionHandles: [],
  functionInstantiations: [],
  signatures: [],
  identifiers: ["option", "Option", "String"],
  addressIdentifiers: [addressFromNumber(1)],
  constantPool: [],
  metadata: []
}

const show = (t: SignatureToken) => typeString(unit, t)

describe("typeString", () => {
  it("prints primitives, references, vectors and generics as the reference does", () => {
    expect(show({ _tag: "MutableReference", to: P.U64 })).toBe("&mut u64")
    expect(show({ _tag: "Reference", to: P.Signer })).toBe("&signer")
    expect(show({ _tag: "Vector", element: P.U8 })).toBe("vector<u8>")
    expect(show({ _tag: "TypeParameter", index: 0 })).toBe("T0")
    expect(show({ _tag: "StructInstantiation", handle: 0, typeArgs: [P.U64] })).toBe("0x1::option::Option<u64>")
    expect(
      show({
        _tag: "StructInstantiation",
        handle: 0,
        typeArgs: [{ _tag: "StructInstantiation", handle: 0, typeArgs: [{ _tag: "Struct", handle: 1 }] }]
      })
    ).toBe("0x1::option::Option<0x1::option::Option<0x1::option::String>>")
  })

  it("prints the signed integers by name", () => {
    expect([P.I8, P.I16, P.I32, P.I64, P.I128, P.I256].map(show)).toEqual(["i8", "i16", "i32", "i64", "i128", "i256"])
  })

  it("prints function types as the reference does: |args|results, comma-joined, no abilities", () => {
    expect(
      show({ _tag: "Function", args: [P.U64, { _tag: "Reference", to: P.Address }], results: [P.Bool], abilities: 0 })
    ).toBe("|u64,&address|bool")
    expect(show({ _tag: "Function", args: [], results: [], abilities: 0x3 })).toBe("||")
    expect(show({ _tag: "Function", args: [P.U8], results: [P.U8, P.U16], abilities: 0x4 })).toBe("|u8|u8,u16")
  })

  it("names abilities in copy, drop, store, key order", () => {
    expect(abilityNames(0xf)).toEqual(["copy", "drop", "store", "key"])
    expect(abilityNames(0xc)).toEqual(["store", "key"])
  })
})

describe("typeString against the TypeScript SDK's type parser (independent oracle)", () => {
  it("every devnet ABI type string parses and prints back unchanged", async () => {
    const { parseTypeTag } = await import("@aptos-labs/ts-sdk")
    const { Result } = await import("effect")
    const { listGenesisModules } = await import("../../../src/move/abi/genesisModules.js")
    const { moduleAbi } = await import("../../../src/move/abi/moduleAbi.js")
    const { deserializeModule } = await import("../../../src/move/binary/deserialize.js")
    const { loadGenesisBytes } = await import("../../support/genesis.js")
    const strings = new Set<string>()
    for (const r of Result.getOrThrow(listGenesisModules(loadGenesisBytes("devnet")))) {
      const abi = moduleAbi(Result.getOrThrow(deserializeModule(r.bytes)))
      for (const f of abi.exposed_functions) for (const t of [...f.params, ...f.return]) strings.add(t)
      for (const s of abi.structs)
        for (const f of [...s.fields, ...(s.variants ?? []).flatMap((v) => v.fields)]) strings.add(f.type)
    }
    // The SDK models `&T` but not `&mut T` nor function types; strip references and skip closures.
    const checked = [...strings].map((s) => s.replace(/^&(mut )?/, "")).filter((s) => !s.includes("|"))
    expect(checked.length).toBeGreaterThan(500)
    for (const s of checked) expect(parseTypeTag(s, { allowGenerics: true }).toString(), s).toBe(s)
  })
})
