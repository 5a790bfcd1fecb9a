import { BcsWriter } from "../../bcs/index.js"
import type { AccountAddress } from "../../domain/AccountAddress.js"
import { writeStateKey } from "../../domain/StateKeyCodec.js"
import type { StructTag } from "../../domain/TypeTag.js"
import type { StateValueMetadata } from "../../domain/WriteSet.js"
import type { CachedValue } from "./StateCache.js"
import { keepBytesKey, knownAddressKey } from "../../domain/mapKeys.js"

/**
 * What the VM reads of global state: synchronous, side-effect free, at one version. The VM does no
 * I/O; whoever runs it supplies this view (over the ledger's `StateReader`, or a plain map in tests).
 */
export interface StateView {
  /**
   * Identifies an immutable snapshot (e.g. the ledger version): two views of one ledger with equal
   * snapshots read identical state, so what the VM derived from one (modules checked against their
   * stored version, the decoded gas schedule) holds for the other without reading again.
   * Undefined = no such promise; everything is re-read each run.
   */
  readonly snapshot?: string | bigint | undefined
  /**
   * Identifies the set of modules the view holds, when it differs from `snapshot`: views with
   * equal code snapshots hold the same modules at the same versions (an overlay of uncommitted
   * writes that touch no module keeps its base's). Defaults to `snapshot`. With neither, the
   * loader checks each module it loads by name against the view (a dependency upgraded behind
   * a cached link goes unnoticed: give views whose modules change a code snapshot).
   */
  readonly codeSnapshot?: string | bigint | undefined
  /**
   * The store's history generation (its rewinds so far): within one, a module's version (and
   * length) name its bytes; across two they may not (a module published again at the same
   * version after a rewind), so the loader compares the bytes once per generation. Undefined:
   * not tracked (version and length are trusted).
   */
  readonly generation?: number | undefined
  /** Module bytes and the version that wrote them (the loader caches by both). */
  readonly module: (
    address: AccountAddress,
    name: string
  ) => { readonly bytes: Uint8Array; readonly version: bigint } | undefined
  /**
   * BCS of a resource stored under its own key (not a group member). `tagBytes`, when given, is
   * BCS(tag), which the VM caches per type so that building the key allocates little: a long-lived
   * object (keys are cached by it, `cachedAccessPathKey`), never one built for the call.
   */
  readonly resource: (address: AccountAddress, tag: StructTag, tagBytes?: Uint8Array) => Uint8Array | undefined
  /** BCS of a resource group: a map from member StructTag to member bytes. */
  readonly resourceGroup: (address: AccountAddress, group: StructTag, tagBytes?: Uint8Array) => Uint8Array | undefined
  /** BCS of a table item's value. */
  readonly tableItem: (handle: AccountAddress, key: Uint8Array) => Uint8Array | undefined
  /**
   * The state's storage usage (items and bytes) as of this view's version, for
   * `state_storage::get_state_storage_usage_only_at_epoch_beginning`; zero when absent.
   */
  readonly storageUsage?: (() => { readonly items: bigint; readonly bytes: bigint }) | undefined
  /**
   * The state-value metadata (storage deposits, creation time) recorded with the value at
   * `keyBytes` (BCS of its StateKey): the executor prices modifications and refunds deletions from
   * it. Undefined when the value has none (legacy slots, or absent); views that do not track it
   * leave the function out.
   */
  readonly stateValueMetadata?: ((keyBytes: Uint8Array) => StateValueMetadata | undefined) | undefined
  /**
   * The value at `keyBytes` (BCS of its StateKey), when the view is keyed by bytes: an overlay builds
   * a key once and asks its base with it, instead of every layer rebuilding it.
   */
  readonly valueAt?: ((keyBytes: Uint8Array) => Uint8Array | undefined) | undefined
  /**
   * Resources decoded from this view's bytes, by the bytes object, for views without a `snapshot`
   * (a block's overlay, which hands back the same object for a value not rewritten since): sessions
   * over it decode a stored value once and take copies. A block's overlay starts a new one for each
   * transaction (OverlayStateView.forgetDecodedResources).
   */
  readonly decodedResources?: Map<Uint8Array, CachedValue> | undefined
}

/** The narrow shape of the ledger's `StateReader` this adapter needs. */
export interface KeyValueReader {
  readonly get: (keyBytes: Uint8Array) => Uint8Array | undefined
  readonly getVersioned: (keyBytes: Uint8Array) => { readonly value: Uint8Array; readonly version: bigint } | undefined
  /** The slot metadata recorded with the value (see `StateView.stateValueMetadata`), when the reader keeps it. */
  readonly metadata?: ((keyBytes: Uint8Array) => StateValueMetadata | undefined) | undefined
  /**
   * The reader's own name for its snapshot, when the version alone does not name it (a ledger that
   * was rewound reuses versions): it replaces the `snapshot` a caller passes.
   */
  readonly snapshotId?: string | undefined
  /** The reader's name for the modules it sees, when it has one (see `StateView.codeSnapshot`). */
  readonly codeSnapshotId?: string | undefined
  /** The store's history generation (see `StateView.generation`). */
  readonly generation?: number | undefined
}

const keyBytes = (write: (w: BcsWriter) => void): Uint8Array => {
  const w = new BcsWriter(96)
  write(w)
  return w.toBytes()
}

/** BCS(StateKey::AccessPath{address, path: [kind] ++ tagBytes}) by concatenation (path < 128 bytes: one uleb byte). */
export const accessPathKey = (address: AccountAddress, kind: number, tagBytes: Uint8Array): Uint8Array => {
  const pathLen = 1 + tagBytes.length
  const lenBytes = pathLen < 0x80 ? 1 : pathLen < 0x4000 ? 2 : 3
  const out = new Uint8Array(1 + 32 + lenBytes + pathLen)
  out[0] = 0
  out.set(address, 1)
  let o = 33
  let n = pathLen
  while (n >= 0x80) {
    out[o++] = (n & 0x7f) | 0x80
    n >>>= 7
  }
  out[o++] = n
  out[o++] = kind
  out.set(tagBytes, o)
  return out
}

/** Keys per tag kept at most (one per address touched; cleared when full). */
const MAX_KEYS_PER_TAG = 4096
/** By path kind (1 resource, 2 group), then by the tag's bytes object, then by address. */
const keysByTag = [
  undefined,
  new WeakMap<Uint8Array, Map<string, Uint8Array>>(),
  new WeakMap<Uint8Array, Map<string, Uint8Array>>()
]

/**
 * `accessPathKey` for a `tagBytes` object that lives on (a loaded type's BCS tag, shared by every
 * session): the same key array is handed out for the same address and tag, instead of a new one
 * per read (a transfer builds a dozen; a typed array costs ~0.4 µs to create, issue 22). Keys are
 * never mutated (as addresses are not), so each keeps its map key string too (`keepBytesKey`:
 * the overlays a block reads through look it up without building and hashing it again). Pass a tag
 * built for the call to `accessPathKey` instead: it would only fill the cache.
 */
export const cachedAccessPathKey = (address: AccountAddress, kind: 1 | 2, tagBytes: Uint8Array): Uint8Array => {
  const byTag = keysByTag[kind]!
  let keys = byTag.get(tagBytes)
  if (keys === undefined) {
    keys = new Map()
    byTag.set(tagBytes, keys)
  }
  const a = knownAddressKey(address)
  let key = keys.get(a)
  if (key === undefined) {
    key = accessPathKey(address, kind, tagBytes)
    keepBytesKey(key)
    if (keys.size >= MAX_KEYS_PER_TAG) keys.clear()
    keys.set(a, key)
  }
  return key
}

/** BCS(StateKey::TableItem{handle, key}) by concatenation: tag 1, the handle, the key with its uleb length. */
export const tableItemKey = (handle: AccountAddress, key: Uint8Array): Uint8Array => {
  let n = key.length
  let lenBytes = 1
  for (let x = n; x >= 0x80; x >>>= 7) lenBytes++
  const out = new Uint8Array(1 + 32 + lenBytes + n)
  out[0] = 1
  out.set(handle, 1)
  let o = 33
  while (n >= 0x80) {
    out[o++] = (n & 0x7f) | 0x80
    n >>>= 7
  }
  out[o++] = n
  out.set(key, o)
  return out
}

const utf8 = new TextEncoder()

/** BCS(StateKey) of a module: AccessPath{address, path: Code(ModuleId{address, name})}, by concatenation. */
export const moduleKeyBytes = (address: AccountAddress, name: string): Uint8Array => {
  const nameBytes = utf8.encode(name)
  if (nameBytes.length >= 0x80) return new Uint8Array(0)
  const pathLen = 1 + 32 + 1 + nameBytes.length
  const out = new Uint8Array(1 + 32 + 1 + pathLen)
  out[0] = 0
  out.set(address, 1)
  out[33] = pathLen
  out[34] = 0
  out.set(address, 35)
  out[67] = nameBytes.length
  out.set(nameBytes, 68)
  return out
}

/**
 * A StateView over a key-value reader whose keys are BCS(StateKey). `snapshot` (see `StateView`) is
 * only safe when every view given to one `MoveVm` with that snapshot reads the same state. With
 * one, the reader's name for its modules (`codeSnapshotId`, asked for on first use) is the view's
 * `codeSnapshot`.
 */
export const stateViewFromReader = (reader: KeyValueReader, snapshot?: string | bigint): StateView => ({
  snapshot: snapshot === undefined ? undefined : (reader.snapshotId ?? snapshot),
  get codeSnapshot() {
    return snapshot === undefined ? undefined : reader.codeSnapshotId
  },
  generation: reader.generation,
  valueAt: reader.get,
  stateValueMetadata: reader.metadata,
  module: (address, name) => {
    // Identifiers are at most 255 bytes; the concatenated form covers names under 128 (every real one).
    const fast = moduleKeyBytes(address, name)
    const v = reader.getVersioned(
      fast.length > 0
        ? fast
        : keyBytes((w) =>
            writeStateKey(w, { _tag: "AccessPath", address, path: { _tag: "Code", module: { address, name } } })
          )
    )
    return v === undefined ? undefined : { bytes: v.value, version: v.version }
  },
  resource: (address, tag, tagBytes) =>
    reader.get(
      tagBytes !== undefined
        ? cachedAccessPathKey(address, 1, tagBytes)
        : keyBytes((w) => writeStateKey(w, { _tag: "AccessPath", address, path: { _tag: "Resource", struct: tag } }))
    ),
  resourceGroup: (address, group, tagBytes) =>
    reader.get(
      tagBytes !== undefined
        ? cachedAccessPathKey(address, 2, tagBytes)
        : keyBytes((w) =>
            writeStateKey(w, { _tag: "AccessPath", address, path: { _tag: "ResourceGroup", struct: group } })
          )
    ),
  tableItem: (handle, key) =>
    reader.get(
      handle.length === 32
        ? tableItemKey(handle, key)
        : keyBytes((w) => writeStateKey(w, { _tag: "TableItem", handle, key }))
    )
})
