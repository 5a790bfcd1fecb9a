import { Result } from "effect"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { fromHex } from "../../../src/bcs/index.js"
import { listGenesisModules } from "../../../src/move/abi/genesisModules.js"
import { moduleAbi, moduleAbiJson } from "../../../src/move/abi/moduleAbi.js"
import type { MoveModuleAbi } from "../../../src/move/abi/MoveModuleAbi.js"
import { deserializeModule } from "../../../src/move/binary/deserialize.js"
import { loadGenesisBytes } from "../../support/genesis.js"

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

describe("moduleAbi", () => {
  it("matches the reference golden for 0x1::guid field by field", () => {
    const m = Result.getOrThrow(deserializeModule(fromHex(golden.bytecode)!))
    const extra: string[] = []
    compareFieldByField(moduleAbi(m), golden.abi, "abi", extra)
    // The golden predates enums; the modern field set adds only `is_enum` to each struct.
    expect(extra).toEqual(["abi.structs[0].is_enum", "abi.structs[1].is_enum"])
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

    it("includes private entry functions and omits private non-entry ones", () => {
      const all = [...abis.values()].flatMap((a) => a.exposed_functions)
      expect(all.some((f) => f.visibility === "private" && f.is_entry)).toBe(true)
      expect(all.some((f) => f.visibility === "private" && !f.is_entry)).toBe(false)
    })

    it("shows Option as an enum with its variants, and empty fields", () => {
      const option = abis.get("0x1::option")!.structs.find((s) => s.name === "Option")!
      expect(option.is_enum).toBe(true)
      expect(option.fields).toEqual([])
      expect(option.variants).toEqual([
        { name: "None", fields: [] },
        { name: "Some", fields: [{ name: "e", type: "T0" }] }
      ])
      expect(option.generic_type_params).toEqual([{ constraints: [] }])
    })

    it("gives non-enum structs no variants key and abilities in copy, drop, store, key order", () => {
      const coinStore = abis.get("0x1::coin")!.structs.find((s) => s.name === "CoinStore")!
      expect("variants" in coinStore).toBe(false)
      expect(coinStore.abilities).toEqual(["key"])
      const guid = abis.get("0x1::guid")!.structs.find((s) => s.name === "ID")!
      expect(guid.abilities).toEqual(["copy", "drop", "store"])
    })

    it("marks #[event] structs", () => {
      expect(abis.get("0x1::coin")!.structs.find((s) => s.name === "CoinDeposit")?.is_event).toBe(true)
      expect(abis.get("0x1::coin")!.structs.find((s) => s.name === "CoinStore")?.is_event).toBe(false)
    })
  })
})
