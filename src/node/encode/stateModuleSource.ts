import * as Result from "effect/Result"
import { toHex } from "../../bcs/index.js"
import type { StateReader } from "../../ledger/Ledger.js"
import type { CompiledModule } from "../../move/binary/CompiledModule.js"
import { deserializeModule } from "../../move/binary/deserialize.js"
import type { ModuleSource } from "../../move/layout/ModuleSource.js"
import type { LruCache } from "../LruCache.js"
import { moduleKey } from "../stateKeys.js"

/**
 * Modules already resolved at one state version. State at a version never changes, so within a
 * version a module is looked up once; a new version starts afresh (bounded, so it cannot grow).
 */
export interface SnapshotModules {
  version: bigint | undefined
  readonly byName: Map<string, CompiledModule | null>
}

export const makeSnapshotModules = (): SnapshotModules => ({ version: undefined, byName: new Map() })

const SNAPSHOT_MODULES_MAX = 1024

/**
 * A `ModuleSource` over a state snapshot. Decoded modules are cached by address, name and the
 * version that wrote them, so an unchanged module is decoded once however many versions read it,
 * and an upgrade is a new key. Undecodable bytes count as no module (`null` is cached for them).
 * With `snapshot`, repeated lookups at the same state version skip the store read altogether.
 */
export const stateModuleSource =
  (state: StateReader, cache: LruCache<string, CompiledModule | null>, snapshot?: SnapshotModules): ModuleSource =>
  (address, name) => {
    const id = `${toHex(address)}::${name}`
    if (snapshot !== undefined) {
      if (snapshot.version !== state.version || snapshot.byName.size >= SNAPSHOT_MODULES_MAX) {
        snapshot.version = state.version
        snapshot.byName.clear()
      }
      const seen = snapshot.byName.get(id)
      if (seen !== undefined) return seen ?? undefined
    }
    const module = lookup(state, cache, id, address, name)
    snapshot?.byName.set(id, module)
    return module ?? undefined
  }

const lookup = (
  state: StateReader,
  cache: LruCache<string, CompiledModule | null>,
  id: string,
  address: Uint8Array,
  name: string
): CompiledModule | null => {
  const found = state.getVersioned(moduleKey(address, name))
  if (found === undefined) return null
  const key = `${id}@${found.version}`
  const cached = cache.get(key)
  if (cached !== undefined) return cached
  const decoded = deserializeModule(found.value)
  const module = Result.isSuccess(decoded) ? decoded.success : null
  cache.set(key, module)
  return module
}
