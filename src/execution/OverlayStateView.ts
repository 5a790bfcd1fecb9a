import { BcsWriter } from "../bcs/index.js"
import type { AccountAddress } from "../domain/AccountAddress.js"
import type { StateKey } from "../domain/StateKey.js"
import { writeStateKey } from "../domain/StateKeyCodec.js"
import type { StructTag } from "../domain/TypeTag.js"
import { isModuleWrite, type StateValueMetadata, type WriteOp, type WriteSet } from "../domain/WriteSet.js"
import { writeStructTag } from "../domain/TypeTagCodec.js"
import { bytesKey } from "../domain/mapKeys.js"
import {
  accessPathKey,
  cachedAccessPathKey,
  moduleKeyBytes,
  type StateView,
  tableItemKey
} from "../move/vm/StateView.js"
import type { CachedValue } from "../move/vm/StateCache.js"

/** One layer of uncommitted writes and the ledger version they will be committed at. */
export interface OverlayLayer {
  readonly writeSet: WriteSet
  /** Reported as the version of modules this layer writes (the loader caches modules by version). */
  readonly version: bigint
}

let overlays = 0

const keyOf = (write: (w: BcsWriter) => void): Uint8Array => {
  const w = new BcsWriter(96)
  write(w)
  return w.toBytes()
}

const tagBytes = (tag: StructTag): Uint8Array => keyOf((w) => writeStructTag(w, tag))

const stateKey = (k: StateKey): Uint8Array => keyOf((w) => writeStateKey(w, k))

/**
 * A `StateView` of a base view with uncommitted change sets on top (the reference's
 * `view_with_change_set`, revm's journal): later layers win, a deletion hides the base's value.
 * Sessions stack through it (prologue → payload → epilogue) and a block executes transaction after
 * transaction through it before anything is committed.
 *
 * Snapshots: `snapshot` is undefined (the overlay never claims the base's immutable state, so no
 * value cache keyed by snapshot is shared with it); `codeSnapshot` is the base's while no layer
 * writes a module, and a new name for each module-writing layer, so the loader re-checks modules
 * exactly when they may have changed.
 *
 * `push` adds a layer in place (a block pushes each transaction's writes): do not push while a
 * session runs over the view.
 */
/** Base values one overlay keeps at most (see `baseValues`): a block's working set is far smaller. */
const MAX_BASE_VALUES = 50_000
/** Decoded values one cache keeps at most (see `decodedResources`): a transaction reads a few dozen. */
const MAX_DECODED = 10_000

export class OverlayStateView implements StateView {
  private readonly writes = new Map<string, { readonly op: WriteOp; readonly version: bigint }>()
  private readonly id = ++overlays
  private moduleLayers = 0

  constructor(
    readonly base: StateView,
    layers: ReadonlyArray<OverlayLayer> = []
  ) {
    for (const l of layers) this.push(l)
    // One decoded-value cache for the overlays stacked on one bottom overlay (a block and its sessions).
    this.decoded = base instanceof OverlayStateView ? base.decodedResources : new Map()
    this.baseAt = base.valueAt
    this.bottomAt = base instanceof OverlayStateView ? base.bottomAt : base.valueAt
    this.valueAt = this.bottomAt === undefined ? undefined : (keyBytes) => this.readKeyed(keyBytes)
  }

  /**
   * Resources the VM decoded from bytes read through these overlays (StateView.decodedResources):
   * the bottom overlay's, shared by those stacked on it, until `forgetDecodedResources`.
   */
  get decodedResources(): Map<Uint8Array, CachedValue> {
    // Bounded for an overlay nobody tells to forget (an in-flight block's view, genesis's): a new
    // cache once this one holds `MAX_DECODED` values.
    if (this.decoded.size >= MAX_DECODED) this.decoded = new Map()
    return this.decoded
  }

  /**
   * A `Map`, not a `WeakMap`, though keyed by objects: it lives for one transaction (a block's
   * overlay starts a new one before each), so it never outlives what it keys, and a `WeakMap` made
   * per transaction costs V8 its ephemeron tables — growing one from empty, a write barrier a set,
   * the collector's passes over them — ~1.5 % of the chain's thread at full load (session 59).
   */
  private decoded: Map<Uint8Array, CachedValue>

  /**
   * Starts a new decoded-resource cache for the overlays stacked on this one from now on. A block
   * starts one for each transaction: the sessions of one transaction (prologue, payload, epilogue)
   * read the same accounts and stores and share their decoded values, but the next transaction
   * mostly reads other accounts, or values this one rewrote (new bytes, decoded anew). Kept for
   * the whole block, the cache held every value decoded in it until the block's end, long enough
   * for V8 to copy them all into its old generation: ~1.7 KB a transfer of the ~13.5 promoted at
   * full load (docs/benchmarks.md, session 41: with no cache at all the CPU a transfer was no
   * higher than with the block's; a cache per transaction promotes least).
   */
  forgetDecodedResources(): void {
    this.decoded = new Map()
  }

  /** The base's keyed read, when it has one. */
  private readonly baseAt: ((keyBytes: Uint8Array) => Uint8Array | undefined) | undefined
  /**
   * The keyed read of the first view below the overlays stacked here (a block's overlay under a
   * transaction's session layers), when it has one: `readKeyed` then walks the overlays itself,
   * building each key's map string once instead of once per overlay.
   */
  private readonly bottomAt: ((keyBytes: Uint8Array) => Uint8Array | undefined) | undefined
  readonly valueAt: ((keyBytes: Uint8Array) => Uint8Array | undefined) | undefined

  /** The value at `keyBytes` through this overlay and those below it (needs `bottomAt`). */
  private readKeyed(keyBytes: Uint8Array): Uint8Array | undefined {
    let k: string | undefined
    let view: OverlayStateView = this
    for (;;) {
      if (view.writes.size > 0) {
        k ??= bytesKey(keyBytes)
        const w = view.writes.get(k)
        if (w !== undefined) return "data" in w.op ? w.op.data : undefined
      }
      const below = view.base
      if (!(below instanceof OverlayStateView)) return view.baseRead(keyBytes, k)
      view = below
    }
  }

  /**
   * Values read from the base through this overlay when it is the bottom one (its base is no
   * overlay: a block's committed state), by key. The base is an immutable snapshot and a block
   * reads the same configuration, accounts and stores transaction after transaction (each of its
   * prologue, payload and epilogue sessions again): one store read per key and block (issue 22).
   * Present values only: an absent one is asked again (a fork records what it could not fetch).
   */
  private baseValues: Map<string, Uint8Array> | undefined

  private baseRead(keyBytes: Uint8Array, k: string | undefined): Uint8Array | undefined {
    const key = k ?? bytesKey(keyBytes)
    const values = (this.baseValues ??= new Map())
    let v = values.get(key)
    if (v === undefined) {
      v = this.bottomAt!(keyBytes)
      if (v !== undefined && values.size < MAX_BASE_VALUES) values.set(key, v)
    }
    return v
  }

  readonly snapshot = undefined

  /** The base's storage usage (the reference reads it as of the block's start). */
  readonly storageUsage = (): { readonly items: bigint; readonly bytes: bigint } =>
    this.base.storageUsage?.() ?? { items: 0n, bytes: 0n }

  get generation(): number | undefined {
    return this.base.generation
  }

  get codeSnapshot(): string | bigint | undefined {
    const base = this.base.codeSnapshot ?? this.base.snapshot
    return this.moduleLayers === 0 ? base : `${String(base)}+overlay${this.id}.${this.moduleLayers}`
  }

  /**
   * The metadata a layer recorded with the key (its *WithMetadata op), else the base's; undefined
   * when the latest layer's op carries none or deleted the value.
   */
  readonly stateValueMetadata = (keyBytes: Uint8Array): StateValueMetadata | undefined => {
    let k: string | undefined
    let view: OverlayStateView = this
    for (;;) {
      if (view.writes.size > 0) {
        k ??= bytesKey(keyBytes)
        const w = view.writes.get(k)
        if (w !== undefined)
          return w.op._tag === "DeletionWithMetadata" || w.op._tag === "Deletion"
            ? undefined
            : "metadata" in w.op
              ? w.op.metadata
              : undefined
      }
      const below = view.base
      if (!(below instanceof OverlayStateView)) return below.stateValueMetadata?.(keyBytes)
      view = below
    }
  }

  /** Adds a layer on top. */
  push(layer: OverlayLayer): void {
    let modules = false
    for (const e of layer.writeSet.entries) {
      this.writes.set(bytesKey(e.keyBytes), { op: e.op, version: layer.version })
      if (isModuleWrite(e)) modules = true
    }
    if (modules) this.moduleLayers++
  }

  /** The overlay's write for a key: undefined when no layer touches it. */
  private write(keyBytes: Uint8Array): { readonly op: WriteOp; readonly version: bigint } | undefined {
    return this.writes.size === 0 ? undefined : this.writes.get(bytesKey(keyBytes))
  }

  readonly module = (
    address: AccountAddress,
    name: string
  ): { readonly bytes: Uint8Array; readonly version: bigint } | undefined => {
    const fast = moduleKeyBytes(address, name)
    const w = this.write(
      fast.length > 0
        ? fast
        : stateKey({ _tag: "AccessPath", address, path: { _tag: "Code", module: { address, name } } })
    )
    if (w === undefined) return this.base.module(address, name)
    return "data" in w.op ? { bytes: w.op.data, version: w.version } : undefined
  }

  readonly resource = (address: AccountAddress, tag: StructTag, bytes?: Uint8Array): Uint8Array | undefined => {
    const key = bytes === undefined ? accessPathKey(address, 1, tagBytes(tag)) : cachedAccessPathKey(address, 1, bytes)
    if (this.bottomAt !== undefined) return this.readKeyed(key)
    const w = this.write(key)
    if (w === undefined) return this.baseAt === undefined ? this.base.resource(address, tag, bytes) : this.baseAt(key)
    return "data" in w.op ? w.op.data : undefined
  }

  readonly resourceGroup = (address: AccountAddress, group: StructTag, bytes?: Uint8Array): Uint8Array | undefined => {
    const key =
      bytes === undefined ? accessPathKey(address, 2, tagBytes(group)) : cachedAccessPathKey(address, 2, bytes)
    if (this.bottomAt !== undefined) return this.readKeyed(key)
    const w = this.write(key)
    if (w === undefined)
      return this.baseAt === undefined ? this.base.resourceGroup(address, group, bytes) : this.baseAt(key)
    return "data" in w.op ? w.op.data : undefined
  }

  readonly tableItem = (handle: AccountAddress, key: Uint8Array): Uint8Array | undefined => {
    const k = handle.length === 32 ? tableItemKey(handle, key) : stateKey({ _tag: "TableItem", handle, key })
    if (this.bottomAt !== undefined) return this.readKeyed(k)
    const w = this.write(k)
    if (w === undefined) return this.baseAt === undefined ? this.base.tableItem(handle, key) : this.baseAt(k)
    return "data" in w.op ? w.op.data : undefined
  }
}

/** `base` with `layers` on top (see `OverlayStateView`). */
export const overlayStateView = (base: StateView, layers: ReadonlyArray<OverlayLayer>): OverlayStateView =>
  new OverlayStateView(base, layers)
