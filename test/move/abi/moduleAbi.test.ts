import { Result } from "effect"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { fromHex } from "../../../src/bcs/index.js"
import { listGenesisModules } from "../../../src/move/abi/genesisModules.js"
import { moduleAbi, moduleAbiJson } from "../../../src/move/abi/moduleAbi.js"
import type { MoveModuleAbi, MoveStructAbi } from "../../../src/move/abi/MoveModuleAbi.js"
import { deserializeModule } from "../../../src/move/binary/deserialize.js"
import { ALL_GENESIS, hasGenesis, loadGenesisBytes } from "../../support/genesis.js"
import { MOVE_STRUCT_KEYS } from "../../support/moveStructKeys.js"

const golden = JSON.parse(
  readFileSync(new URL("../../fixtures/move/guid_module_golden.json", import.meta.url), "utf8")
) as { bytecode: string; abi: Record<string, unknown> }

/** Every field the golden names must be equal in ours; returns the paths of fields only we have. */
const compareFieldByField = (ours: unknown, theirs: unknown, path: string, extra: string[]): void => {
  if (Array.isArray(theirs)) {
    expect(Array.isArray(ours), path).toBe(true)
    expect((ours as unknown[]).length, `${path}.length`).toBe(theirs.length)
    theirs.forEach((t, i) => {
      compareFieldByField((ours as unknown[])[i], t, `${path}[${i}]`, extra)
    })
  } else if (theirs !== null && typeof theirs === "object") {
    const o = ours as Record<string, unknown>
    for (const [k, v] of Object.entries(theirs)) {
      expect(k in o, `${path}.${k} present`).toBe(true)
      compareFieldByField(o[k], v, `${path}.${k}`, extra)
    }
    for (const k of Object.keys(o)) if (!(k in theirs)) extra.push(`${path}.${k}`)
  } else {
    expect(ours, path).toEqual(theirs)
  }
}

const goldenDir = new URL("./goldens/", import.meta.url)

/** A struct's ABI against its hand-written golden, as text: values and key order both count. */
const expectStructGolden = (name: string, struct: MoveStructAbi) =>
  expect(JSON.stringify(struct, null, 2) + "\n").toBe(readFileSync(new URL(`${name}.json`, goldenDir), "utf8"))

const structOf = (abis: ReadonlyMap<string, MoveModuleAbi>, module: string, name: string): MoveStructAbi =>
  abis.get(module)!.structs.find((s) => s.name === name)!

describe("moduleAbi", () => {
  it("gives a native struct no fields, no variants (golden)", () => {
    const m = Result.getOrThrow(deserializeModule(fromHex(golden.bytecode)!))
    // No genesis module declares a native struct: the guid module's GUID, made native.
    const structDefs = m.structDefs.map((d, i) =>
      i === 0 ? { ...d, fieldInformation: { _tag: "Native" as const } } : d
    )
    const native = moduleAbi({ ...m, structDefs }).structs[0]!
    expectStructGolden("native_struct", native)
  })

  for (const name of ALL_GENESIS)
    it.skipIf(!hasGenesis(name))(
      `gives every struct of every ${name} module all eight keys in the reference's order`,
      () => {
        const rows = Result.getOrThrow(listGenesisModules(loadGenesisBytes(name)))
        let structs = 0
        for (const r of rows) {
          const abi = JSON.parse(moduleAbiJson(Result.getOrThrow(deserializeModule(r.bytes)))) as MoveModuleAbi
          for (const s of abi.structs) {
            structs++
            expect(Object.keys(s), `${r.address}::${r.name}::${s.name}`).toEqual(MOVE_STRUCT_KEYS)
            expect(Array.isArray(s.variants)).toBe(true)
            if (!s.is_enum) expect(s.variants).toEqual([])
            else expect(s.fields).toEqual([])
            if (s.is_native) expect(s.fields).toEqual([])
          }
          const option = abi.structs.find((s) => r.address === "0x1" && r.name === "option" && s.name === "Option")
          if (option !== undefined) expectStructGolden("option", option)
        }
        expect(structs).toBeGreaterThan(name === "devnet" ? 700 : 200)
      }
    )

  it("matches the reference golden for 0x1::guid field by field", () => {
    const m = Result.getOrThrow(deserializeModule(fromHex(golden.bytecode)!))
    const extra: string[] = []
    compareFieldByField(moduleAbi(m), golden.abi, "abi", extra)
    // The golden predates enums; the modern field set adds only `is_enum` and `variants` to each struct.
    expect(extra).toEqual([
      "abi.structs[0].is_enum",
      "abi.structs[0].variants",
      "abi.structs[1].is_enum",
      "abi.structs[1].variants"
    ])
    expect(JSON.parse(moduleAbiJson(m))).toEqual(moduleAbi(m))
  })

  describe("devnet framework", () => {
    const abis = new Map<string, MoveModuleAbi>()
    for (const r of Result.getOrThrow(listGenesisModules(loadGenesisBytes("devnet"))))
      abis.set(`${r.address}::${r.name}`, moduleAbi(Result.getOrThrow(deserializeModule(r.bytes))))
    const fn = (module: string, name: string) => abis.get(module)!.exposed_functions.find((f) => f.name === name)

    it("marks the documented view functions", () => {
      const views = [
        ["0x1::coin", "balance"],
        ["0x1::primary_fungible_store", "balance"],
        ["0x1::fungible_asset", "balance"],
        ["0x1::account", "get_sequence_number"],
        ["0x1::chain_id", "get"],
        ["0x1::timestamp", "now_microseconds"],
        ["0x1::object", "owns"],
        ["0x1::object", "owner"],
        ["0x1::object", "is_burnt"],
        ["0x1::object", "is_owner"],
        ["0x1::object", "root_owner"],
        ["0x1::object", "is_untransferable"]
      ] as const
      for (const [m, f] of views) expect(fn(m, f)?.is_view, `${m}::${f}`).toBe(true)
      expect(fn("0x1::coin", "transfer")?.is_view).toBe(false)
    })

    it("prints generic and entry signatures as the reference does", () => {
      expect(fn("0x1::coin", "transfer")).toEqual({
        name: "transfer",
        visibility: "public",
        is_entry: true,
        is_view: false,
        generic_type_params: [{ constraints: [] }],
        params: ["&signer", "address", "u64"],
        return: []
      })
      expect(fn("0x1::coin", "balance")?.return).toEqual(["u64"])
    })

    it("includes private entry and private view functions and omits other private ones (test_abi)", () => {
      const all = [...abis.values()].flatMap((a) => a.exposed_functions)
      expect(all.some((f) => f.visibility === "private" && f.is_entry)).toBe(true)
      expect(all.some((f) => f.visibility === "private" && f.is_view && !f.is_entry)).toBe(true)
      expect(all.some((f) => f.visibility === "private" && !f.is_entry && !f.is_view)).toBe(false)
    })

    it("serves 0x1::option::Option in its legacy struct form although devnet compiles it as an enum", () => {
      const r = Result.getOrThrow(listGenesisModules(loadGenesisBytes("devnet"))).find((x) => x.name === "option")!
      const m = Result.getOrThrow(deserializeModule(r.bytes))
      const def = m.structDefs.find((d) => m.identifiers[m.structHandles[d.structHandle]!.name] === "Option")!
      expect(def.fieldInformation._tag).toBe("DeclaredVariants")
      expectStructGolden("option", structOf(abis, "0x1::option", "Option"))
    })

    it("keeps every other enum an enum: is_enum, empty fields, its variants", () => {
      expectStructGolden("enum_struct", structOf(abis, "0x1::result", "Result"))
      const enums = [...abis.values()].flatMap((a) => a.structs).filter((s) => s.is_enum)
      expect(enums.length).toBeGreaterThan(50)
      for (const e of enums) {
        expect(e.fields).toEqual([])
        expect(e.variants.length).toBeGreaterThan(0)
      }
    })

    it("gives plain structs an empty variants list after their fields", () => {
      expectStructGolden("plain_struct", structOf(abis, "0x1::guid", "GUID"))
      const coinStore = structOf(abis, "0x1::coin", "CoinStore")
      expect(coinStore.variants).toEqual([])
      expect(coinStore.abilities).toEqual(["key"])
      const guid = structOf(abis, "0x1::guid", "ID")
      expect(guid.abilities).toEqual(["copy", "drop", "store"])
    })

    it("marks #[event] structs", () => {
      expect(abis.get("0x1::coin")!.structs.find((s) => s.name === "CoinDeposit")?.is_event).toBe(true)
      expect(abis.get("0x1::coin")!.structs.find((s) => s.name === "CoinStore")?.is_event).toBe(false)
    })
  })
})
