/**
 * Layout resolution from real modules (devnet and mainnet genesis), and both converters over every
 * resource genesis writes: BCS → JSON succeeds and JSON → BCS gives back the same bytes.
 */
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { Bcs, toHex } from "../../../src/bcs/index.js"
import { decodeGenesisTransaction } from "../../../src/domain/Genesis.js"
import type { StructTag, TypeTag } from "../../../src/domain/TypeTag.js"
import { parseTypeTag } from "../../../src/domain/TypeTagString.js"
import { structTagCodec } from "../../../src/domain/TypeTagCodec.js"
import { bcsToJson } from "../../../src/move/json/bcsToJson.js"
import { jsonToBcs } from "../../../src/move/json/jsonToBcs.js"
import { optionElement, specialStruct } from "../../../src/move/layout/MoveTypeLayout.js"
import { resolveLayout } from "../../../src/move/layout/resolveLayout.js"
import { genesisModules } from "../../node/encode/genesisModules.js"
import { ALL_GENESIS, hasGenesis, loadGenesisBytes } from "../../support/genesis.js"
import { toInputForm } from "./arbitraries.js"

const groupCodec = Bcs.map(structTagCodec, Bcs.bytes)
const tag = (s: string): TypeTag => Result.getOrThrow(parseTypeTag(s))

describe("resolveLayout on devnet genesis", () => {
  const { source } = genesisModules("devnet")

  it("resolves framework structs with their field names, instantiating generics", () => {
    const coin = Result.getOrThrow(resolveLayout(source, tag("0x1::coin::Coin<0x1::aptos_coin::AptosCoin>")))
    expect(coin).toMatchObject({ _tag: "struct", fields: [{ name: "value", layout: { _tag: "u64" } }] })
    const store = Result.getOrThrow(resolveLayout(source, tag("0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>")))
    expect(store._tag === "struct" && store.fields.map((f) => f.name)).toEqual([
      "coin",
      "frozen",
      "deposit_events",
      "withdraw_events"
    ])
    const s = Result.getOrThrow(resolveLayout(source, tag("0x1::string::String")))
    expect(s._tag === "struct" && specialStruct(s.struct)).toBe("String")
    const o = Result.getOrThrow(resolveLayout(source, tag("0x1::option::Option<vector<u64>>")))
    expect(optionElement(o)).toEqual({ _tag: "vector", element: { _tag: "u64" } })
  })

  it("fails with typed errors for unknown modules, structs and wrong arity", () => {
    const err = (t: string) => {
      const r = resolveLayout(source, tag(t))
      if (Result.isSuccess(r)) throw new Error("expected failure")
      return r.failure
    }
    expect(err("0x1::nope::S").reason).toBe("ModuleNotFound")
    expect(err("0x1::coin::Nope").reason).toBe("StructNotFound")
    expect(err("0x1::coin::Coin").reason).toBe("Invalid")
    expect(err("0xcafe::m::S").reason).toBe("ModuleNotFound")
  })

  it("bounds depth and size", () => {
    let deep: TypeTag = { _tag: "u8" }
    for (let i = 0; i < 200; i++) deep = { _tag: "vector", element: deep }
    const r = resolveLayout(source, deep)
    expect(Result.isFailure(r) && r.failure.reason).toBe("TooDeep")
    const big = resolveLayout(source, tag("0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>"), {
      maxDepth: 128,
      maxNodes: 5
    })
    expect(Result.isFailure(big) && big.failure.reason).toBe("TooLarge")
  })

  it("every struct of every genesis module resolves, or fails with a typed error (native structs)", () => {
    let resolved = 0
    for (const { module } of genesisModules("devnet").modules) {
      const self = module.moduleHandles[module.selfModuleHandleIndex]!
      for (const def of module.structDefs) {
        const h = module.structHandles[def.structHandle]!
        const st: StructTag = {
          address: module.addressIdentifiers[self.address]!,
          module: module.identifiers[self.name]!,
          name: module.identifiers[h.name]!,
          typeArgs: h.typeParameters.map(() => ({ _tag: "u64" }) as TypeTag)
        }
        const r = resolveLayout(source, { _tag: "struct", struct: st })
        if (Result.isSuccess(r)) resolved++
        else expect(def.fieldInformation._tag === "Native" || r.failure.reason !== undefined).toBe(true)
      }
    }
    expect(resolved).toBeGreaterThan(300)
  })
})

describe("every resource genesis writes converts BCS → JSON → BCS", () => {
  for (const name of ALL_GENESIS) {
    it.skipIf(!hasGenesis(name))(name, () => {
      const { source } = genesisModules(name)
      const tx = Result.getOrThrow(decodeGenesisTransaction(loadGenesisBytes(name)))
      if (tx.payload._tag !== "Direct") throw new Error("expected a direct write set")
      let checked = 0
      for (const { key, op } of tx.payload.changeSet.writeSet.entries) {
        if (key._tag !== "AccessPath" || !("data" in op)) continue
        const values: Array<[StructTag, Uint8Array]> = []
        if (key.path._tag === "Resource") values.push([key.path.struct, op.data])
        else if (key.path._tag === "ResourceGroup") {
          // A resource group: BCS map StructTag → bytes.
          const group = Result.getOrThrow(Bcs.decode(groupCodec, op.data))
          for (const [t, bytes] of group) values.push([t, bytes])
        } else continue
        for (const [st, bytes] of values) {
          const layout = Result.getOrThrow(resolveLayout(source, { _tag: "struct", struct: st }))
          const json = bcsToJson(layout, bytes)
          if (Result.isFailure(json)) throw new Error(`${st.module}::${st.name}: ${json.failure.message}`)
          const back = jsonToBcs(layout, toInputForm(layout, json.success as never))
          if (Result.isFailure(back)) throw new Error(`${st.module}::${st.name}: ${back.failure.message}`)
          expect(toHex(back.success), `${st.module}::${st.name}`).toBe(toHex(bytes))
          checked++
        }
      }
      expect(checked).toBeGreaterThan(20)
    })
  }
})
