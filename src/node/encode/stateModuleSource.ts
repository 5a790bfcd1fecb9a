import * as Result from "effect/Result"
import { equalBytes, toHex } from "../../bcs/index.js"
import type { StateReader } from "../../ledger/Ledger.js"
import type { CompiledModule } from "../../move/binary/CompiledModule.js"
import { deserializeModule } from "../../move/binary/deserialize.js"
import type { ModuleSource } from "../../move/layout/ModuleSource.js"
import type { MoveTypeLayout } from "../../move/layout/MoveTypeLayout.js"
import { LruCache } from "../LruCache.js"
import { moduleKey } from "../stateKeys.js"

/** Each decoded module's bytecode length, for its weight in the module caches. */
const moduleBytes = new WeakMap<CompiledModule, number>()
/** Heap bytes a decoded module takes per byte of its bytecode (0x1's 153 modules: 21.3). */
const DECODED_PER_BYTE = 21
/**
 * What one module cache may hold, in estimated heap bytes: the framework's modules (~0.8 MB of
 * bytecode, ~17 MB decoded) and then some. A count alone let a client naming many large modules
 * (a fork of a network with thousands of packages) hold 1,024 × 20 times their bytecode.
 */
export const MODULE_CACHE_BYTES = 48 << 20

/** A cache for `stateModuleSource`: at most `entries` decoded modules and `MODULE_CACHE_BYTES`. */
export const moduleCache = (entries: number): LruCache<string, CompiledModule | null> =>
  new LruCache<string, CompiledModule | null>(entries, {
    max: MODULE_CACHE_BYTES,
    of: (m) => 64 + (m === null ? 0 : (moduleBytes.get(m) ?? 0) * DECODED_PER_BYTE)
  })

/**
 * Modules already resolved at one state version, or for as long as the modules are the same (the
 * reader's `codeSnapshotId`: versions between two module writes). State at a version never
 * changes, so within it a module is looked up once; another version or set of modules starts
 * afresh (bounded, so it cannot grow). Kept by name, then by address bytes: a lookup compares 32
 * bytes instead of hex-encoding them.
 */
export interface SnapshotModules {
  at: string | bigint | undefined
  size: number
  readonly byName: Map<string, Array<SnapshotEntry>>
  /** Layouts resolved through these modules (`ModuleSource.layouts`), forgotten with them. */
  readonly layouts: Map<string, MoveTypeLayout>
}

interface SnapshotEntry {
  readonly address: Uint8Array
  readonly module: CompiledModule | null
}

export const makeSnapshotModules = (): SnapshotModules => ({
  at: undefined,
  size: 0,
  byName: new Map(),
  layouts: new Map()
})

const SNAPSHOT_MODULES_MAX = 1024
/**
 * Addresses remembered per module name: a lookup scans them, so a client naming one module at
 * many addresses must not make every lookup long. Past this the store is read (still cached).
 */
const SNAPSHOT_ADDRESSES_PER_NAME = 16

const remembered = (snapshot: SnapshotModules, address: Uint8Array, name: string): SnapshotEntry | undefined => {
  const entries = snapshot.byName.get(name)
  if (entries === undefined) return undefined
  for (const e of entries) if (equalBytes(e.address, address)) return e
  return undefined
}

const remember = (snapshot: SnapshotModules, address: Uint8Array, name: string, module: CompiledModule | null) => {
  const entries = snapshot.byName.get(name)
  if (entries !== undefined && entries.length >= SNAPSHOT_ADDRESSES_PER_NAME) return
  // A copy of the address: the caller's array is its own and could be reused.
  const entry = { address: address.slice(), module }
  if (entries === undefined) snapshot.byName.set(name, [entry])
  else entries.push(entry)
  snapshot.size++
}

/**
 * A `ModuleSource` over a state snapshot. Decoded modules are cached by address, name and the
 * version that wrote them, so an unchanged module is decoded once however many versions read it,
 * and an upgrade is a new key. Undecodable bytes count as no module (`null` is cached for them).
 * With `snapshot`, repeated lookups at the same state version (or set of modules) skip the store
 * read altogether.
 */
export const stateModuleSource = (
  state: StateReader,
  cache: LruCache<string, CompiledModule | null>,
  snapshot?: SnapshotModules
): ModuleSource => {
  if (snapshot === undefined) return (address, name) => lookup(state, cache, address, name) ?? undefined
  // A rewound ledger reuses versions: its readers name their state `rewinds/version` (`snapshotId`).
  const at = state.codeSnapshotId ?? state.snapshotId ?? state.version
  // The memo is shared (sources over other states may have used it since): made this source's first.
  const current = (): SnapshotModules => {
    if (snapshot.at !== at) {
      snapshot.at = at
      forget(snapshot)
    }
    return snapshot
  }
  const source = (address: Uint8Array, name: string): CompiledModule | undefined => {
    const memo = current()
    if (memo.size >= SNAPSHOT_MODULES_MAX) forget(memo)
    const seen = remembered(memo, address, name)
    if (seen !== undefined) return seen.module ?? undefined
    const module = lookup(state, cache, address, name)
    remember(memo, address, name, module)
    return module ?? undefined
  }
  return Object.assign(source, { layouts: () => current().layouts })
}

const forget = (snapshot: SnapshotModules): void => {
  snapshot.byName.clear()
  snapshot.size = 0
  snapshot.layouts.clear()
}

const lookup = (
  state: StateReader,
  cache: LruCache<string, CompiledModule | null>,
  address: Uint8Array,
  name: string
): CompiledModule | null => {
  const found = state.getVersioned(moduleKey(address, name))
  if (found === undefined) return null
  // The version that wrote the module names it only within one generation of the ledger (its
  // rewinds, `StateReader.generation`): after a revert, reset or load, a module published again at
  // the version that wrote the one it replaced is another module under the same version.
  const generation = state.generation ?? 0
  const key =
    generation === 0
      ? `${toHex(address)}::${name}@${found.version}`
      : `${toHex(address)}::${name}@${generation}/${found.version}`
  const cached = cache.get(key)
  if (cached !== undefined) return cached
  const decoded = deserializeModule(found.value)
  const module = Result.isSuccess(decoded) ? decoded.success : null
  if (module !== null) moduleBytes.set(module, found.value.length)
  cache.set(key, module)
  return module
}
