import { Result } from "effect"
import fc from "fast-check"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { BcsWriter, fromHex } from "../../../src/bcs/index.js"
import { listGenesisModules } from "../../../src/move/abi/genesisModules.js"
import type { CompiledModule } from "../../../src/move/binary/CompiledModule.js"
import { deserializeModule } from "../../../src/move/binary/deserialize.js"
import { decodeModuleMetadata, METADATA_V1_KEY } from "../../../src/move/metadata/decodeMetadata.js"
import { errorDescription, isEventStruct, isViewFunction } from "../../../src/move/metadata/ModuleMetadata.js"
import { hasGenesis, loadGenesisBytes } from "../../support/genesis.js"

const golden = JSON.parse(readFileSync(new URL("../../fixtures/move/guid_module_golden.json", import.meta.url), "utf8"))
const guid = Result.getOrThrow(deserializeModule(fromHex(golden.bytecode)!))
const modules = (net: "devnet" | "mainnet") =>
  Result.getOrThrow(listGenesisModules(loadGenesisBytes(net))).map((r) => Result.getOrThrow(deserializeModule(r.bytes)))

const withMetadata = (m: CompiledModule, key: string, value: Uint8Array): CompiledModule => ({
  ...m,
  metadata: [{ key: new TextEncoder().encode(key), value }]
})

describe("decodeModuleMetadata", () => {
  it("reads the golden module's v1 error map and compilation metadata", () => {
    const md = Result.getOrThrow(decodeModuleMetadata(guid))
    expect(md.compilation).toEqual({ unstable: false, compilerVersion: "2.0", languageVersion: "2.1" })
    expect([...md.errorMap.keys()]).toEqual([0n])
    expect(errorDescription(md, 0n)?.codeName).toBe("EGUID_GENERATOR_NOT_PUBLISHED")
    // A canonical code (category << 16 | reason) finds the reason in the low 12 bits.
    expect(errorDescription(md, 0x60000n)?.codeName).toBe("EGUID_GENERATOR_NOT_PUBLISHED")
    expect(errorDescription(md, 1n)).toBeUndefined()
  })

  it("counts devnet's view and event attributes", () => {
    let views = 0
    let events = 0
    for (const m of modules("devnet")) {
      const md = Result.getOrThrow(decodeModuleMetadata(m))
      for (const name of md.functionAttributes.keys()) if (isViewFunction(md, name)) views++
      for (const name of md.structAttributes.keys()) if (isEventStruct(md, name)) events++
      // Most modules say language 2.4; a few were built with "2.5-unstable" and flag it.
      expect(md.compilation?.compilerVersion).toBe("2.0")
      expect(md.compilation?.unstable).toBe(md.compilation?.languageVersion.endsWith("-unstable"))
    }
    expect(views).toBe(212)
    expect(events).toBe(163)
  })

  it.skipIf(!hasGenesis("mainnet"))("upgrades mainnet's metadata_v0 error maps (53 annotated modules)", () => {
    const withErrors = modules("mainnet")
      .map((m) => Result.getOrThrow(decodeModuleMetadata(m)))
      .filter((md) => md.errorMap.size > 0)
    expect(withErrors.length).toBe(53)
    for (const md of withErrors) expect(md.functionAttributes.size).toBe(0)
  })

  it("ignores v1 attribute maps on a v5 module", () => {
    const w = new BcsWriter()
    w.uleb128(0) // error map
    w.uleb128(0) // struct attributes
    w.uleb128(1).string("f").uleb128(1).u8(1).uleb128(0) // f: [view]
    const v6 = withMetadata({ ...guid, version: 6 }, METADATA_V1_KEY, w.toBytes())
    expect(isViewFunction(Result.getOrThrow(decodeModuleMetadata(v6)), "f")).toBe(true)
    const v5 = { ...v6, version: 5 }
    expect(isViewFunction(Result.getOrThrow(decodeModuleMetadata(v5)), "f")).toBe(false)
  })

  it("never throws on garbage metadata values", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 200 }),
        fc.constantFrom("aptos::metadata_v0", METADATA_V1_KEY, "compilation_metadata"),
        (bytes, key) => {
          const r = decodeModuleMetadata(withMetadata(guid, key, bytes))
          expect(Result.isSuccess(r) || Result.isFailure(r)).toBe(true)
        }
      )
    )
  })
})
