import * as Result from "effect/Result"
import { toHex } from "../../bcs/index.js"
import type { StateReader } from "../../ledger/Ledger.js"
import type { CompiledModule } from "../../move/binary/CompiledModule.js"
import { deserializeModule } from "../../move/binary/deserialize.js"
import type { ModuleSource } from "../../move/layout/ModuleSource.js"
import type { LruCache } from "../LruCache.js"
import { moduleKey } from "../stateKeys.js"

/**
 * A `ModuleSource` over a state snapshot. Decoded modules are cached by address, name and the
 * version that wrote them, so an unchanged module is decoded once however many versions read it,
 * and an upgrade is a new key. Undecodable bytes count as no module (`null` is cached for them).
 */
export const stateModuleSource =
  (state: StateReader, cache: LruCache<string, CompiledModule | null>): ModuleSource =>
  (address, name) => {
    const found = state.getVersioned(moduleKey(address, name))
    if (found === undefined) return undefined
    const key = `${toHex(address)}::${name}@${found.version}`
    const cached = cache.get(key)
    if (cached !== undefined) return cached ?? undefined
    const decoded = deserializeModule(found.value)
    const module = Result.isSuccess(decoded) ? decoded.success : null
    cache.set(key, module)
    return module ?? undefined
  }
