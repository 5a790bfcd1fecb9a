/** Test helper: the devnet genesis modules as a `ModuleSource`, and SDK-side ABI helpers. */
import { Result } from "effect"
import { toHex } from "../../../src/bcs/index.js"
import { addressToShortString } from "../../../src/domain/AccountAddress.js"
import { listGenesisModules } from "../../../src/move/abi/genesisModules.js"
import type { CompiledModule } from "../../../src/move/binary/CompiledModule.js"
import { deserializeModule } from "../../../src/move/binary/deserialize.js"
import type { SignatureToken } from "../../../src/move/binary/SignatureToken.js"
import type { ModuleSource } from "../../../src/move/layout/ModuleSource.js"
import { structHandleTag } from "../../../src/move/layout/signatureToTypeTag.js"
import { type GenesisName, loadGenesisBytes } from "../../support/genesis.js"

export interface GenesisModules {
  readonly source: ModuleSource
  readonly modules: ReadonlyArray<{ readonly address: string; readonly name: string; readonly module: CompiledModule }>
}

const cache = new Map<GenesisName, GenesisModules>()

export const genesisModules = (name: GenesisName = "devnet"): GenesisModules => {
  const hit = cache.get(name)
  if (hit !== undefined) return hit
  const rows = listGenesisModules(loadGenesisBytes(name))
  if (Result.isFailure(rows)) throw new Error(`genesis decode failed: ${rows.failure.message}`)
  const byKey = new Map<string, CompiledModule>()
  const modules: Array<{ address: string; name: string; module: CompiledModule }> = []
  for (const row of rows.success) {
    const m = deserializeModule(row.bytes)
    if (Result.isFailure(m)) throw new Error(`module ${row.address}::${row.name}: ${m.failure.message}`)
    byKey.set(`${row.address}::${row.name}`, m.success)
    modules.push({ address: row.address, name: row.name, module: m.success })
  }
  const source: ModuleSource = (address, moduleName) => byKey.get(`${addressToShortString(address)}::${moduleName}`)
  const result = { source, modules }
  cache.set(name, result)
  return result
}

/** A signature token printed as a Move type string, generics as `T0`… (for the SDK's parser). */
export const tokenToTypeString = (m: CompiledModule, t: SignatureToken): string => {
  switch (t._tag) {
    case "Vector":
      return `vector<${tokenToTypeString(m, t.element)}>`
    case "Reference":
      return `&${tokenToTypeString(m, t.to)}`
    case "MutableReference":
      return `&mut ${tokenToTypeString(m, t.to)}`
    case "TypeParameter":
      return `T${t.index}`
    case "Struct":
    case "StructInstantiation": {
      const s = structHandleTag(m, t.handle, [])
      const base = `${addressToShortString(s.address)}::${s.module}::${s.name}`
      return t._tag === "Struct" ? base : `${base}<${t.typeArgs.map((a) => tokenToTypeString(m, a)).join(", ")}>`
    }
    case "Function":
      return "function"
    default:
      return t._tag.toLowerCase()
  }
}

export const hex = (b: Uint8Array): string => toHex(b)
