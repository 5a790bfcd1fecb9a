import { Result } from "effect"
import { expect, it } from "vitest"
import { listGenesisModules } from "../../../src/move/abi/genesisModules.js"
import { moduleAbi } from "../../../src/move/abi/moduleAbi.js"
import type { CompiledModule } from "../../../src/move/binary/CompiledModule.js"
import { deserializeModule } from "../../../src/move/binary/deserialize.js"
import { serializeModule } from "../../../src/move/binary/serialize.js"
import { ALL_GENESIS, describeEachGenesis, loadGenesisBytes } from "../../support/genesis.js"

const expected = {
  devnet: {
    modules: 190,
    version: 10,
    functions: 2965,
    structs: 746,
    enums: 110,
    natives: 168,
    exposedViews: 212,
    events: 163
  },
  mainnet: { modules: 70, version: 5, functions: 804, structs: 202, enums: 0, natives: 83, exposedViews: 0, events: 0 }
} as const

describeEachGenesis(ALL_GENESIS, "%s genesis modules", (net) => {
  const rows = Result.getOrThrow(listGenesisModules(loadGenesisBytes(net)))
  const modules: CompiledModule[] = rows.map((r) => Result.getOrThrow(deserializeModule(r.bytes)))
  const want = expected[net]

  it("lists every module of the write set", () => {
    expect(rows.length).toBe(want.modules)
    expect(new Set(rows.map((r) => `${r.address}::${r.name}`)).size).toBe(want.modules)
  })

  it("deserializes and re-serializes every module to identical bytes", () => {
    rows.forEach((r, i) => {
      expect(serializeModule(modules[i]!), `${r.address}::${r.name}`).toEqual(r.bytes)
    })
  })

  it("reads the documented bytecode facts", () => {
    expect(new Set(modules.map((m) => m.version))).toEqual(new Set([want.version]))
    const defs = modules.flatMap((m) => m.functionDefs)
    expect(defs.length).toBe(want.functions)
    expect(defs.filter((d) => d.code === undefined).length).toBe(want.natives)
    const structs = modules.flatMap((m) => m.structDefs)
    expect(structs.length).toBe(want.structs)
    expect(structs.filter((s) => s.fieldInformation._tag === "DeclaredVariants").length).toBe(want.enums)
  })

  it("builds every ABI, named as its write-set key says", () => {
    let views = 0
    let events = 0
    rows.forEach((r, i) => {
      const abi = moduleAbi(modules[i]!)
      expect(`${abi.address}::${abi.name}`).toBe(`${r.address}::${r.name}`)
      views += abi.exposed_functions.filter((f) => f.is_view).length
      events += abi.structs.filter((s) => s.is_event).length
    })
    // 212 functions carry the view attribute, all exposed: 2 of them (confidential_asset auditor
    // getters) are private, and private views are exposed too (the reference's test_abi).
    expect(views).toBe(want.exposedViews)
    expect(events).toBe(want.events)
  })
})
