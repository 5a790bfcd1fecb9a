import { BcsReader, BcsWriter, toHex } from "../../bcs/index.js"
import type { AccountAddress } from "../../domain/AccountAddress.js"
import { readTypeTagAt, writeStructTag } from "../../domain/TypeTagCodec.js"
import type { StructTag } from "../../domain/TypeTag.js"
import type { GasMeter } from "./GasMeter.js"
import { heapSize } from "./MemorySize.js"
import type { CachedValue, GroupIndex, StateCache } from "./StateCache.js"
import type { StateView } from "./StateView.js"
import { type StructKind, structTagOf, type Type, typeName } from "./Type.js"
import { copyValue, type Value } from "./Value.js"
import { deserializeValue } from "./ValueBcs.js"
import { VmError } from "./VmError.js"

/** A global value's slot: `box[0]` is the value, `undefined` when absent (or moved out). */
export interface GlobalSlot {
  readonly box: Value[]
}

/** An event emitted during the run (kept, never persisted by a view). */
export interface EmittedEvent {
  readonly type: Type
  readonly value: Value
}

const structTagBytes = (t: StructTag): Uint8Array => {
  const w = new BcsWriter(64)
  writeStructTag(w, t)
  return w.toBytes()
}

/** A struct type's tag and BCS(tag), computed once per type name (shared by every session). */
interface TagInfo {
  readonly tag: StructTag
  readonly bytes: Uint8Array
  readonly key: string
}
/** By (interned) type object: built once per instantiation, shared by every session. */
const tagInfos = new WeakMap<StructKind, TagInfo>()

const tagInfoOf = (t: StructKind): TagInfo => {
  let info = tagInfos.get(t)
  if (info === undefined) {
    const tag = structTagOf(t)
    info = { tag, bytes: structTagBytes(tag), key: typeName(t) }
    tagInfos.set(t, info)
  }
  return info
}

/** By the group tag object (one per loaded struct definition, so the key is built once). */
const groupInfos = new WeakMap<StructTag, TagInfo>()
const groupInfoOf = (g: StructTag): TagInfo => {
  let info = groupInfos.get(g)
  if (info === undefined) {
    info = { tag: g, bytes: structTagBytes(g), key: `${toHex(g.address)}::${g.module}::${g.name}` }
    groupInfos.set(g, info)
  }
  return info
}

/**
 * A map key of a byte string: its length, then two bytes per UTF-16 code unit (so distinct byte
 * strings never share a key). A quarter of hex's length, built without a per-byte string
 * concatenation; only ever compared, never printed.
 */
export const bytesKey = (a: Uint8Array): string => {
  const n = a.length
  // An address (nearly every key): one flat string, no intermediate concatenations.
  if (n === 32)
    return String.fromCharCode(
      32,
      0,
      (a[0]! << 8) | a[1]!,
      (a[2]! << 8) | a[3]!,
      (a[4]! << 8) | a[5]!,
      (a[6]! << 8) | a[7]!,
      (a[8]! << 8) | a[9]!,
      (a[10]! << 8) | a[11]!,
      (a[12]! << 8) | a[13]!,
      (a[14]! << 8) | a[15]!,
      (a[16]! << 8) | a[17]!,
      (a[18]! << 8) | a[19]!,
      (a[20]! << 8) | a[21]!,
      (a[22]! << 8) | a[23]!,
      (a[24]! << 8) | a[25]!,
      (a[26]! << 8) | a[27]!,
      (a[28]! << 8) | a[29]!,
      (a[30]! << 8) | a[31]!
    )
  let s = String.fromCharCode(n & 0xffff, n >>> 16)
  let i = 0
  for (; i + 8 <= n; i += 8)
    s += String.fromCharCode(
      (a[i]! << 8) | a[i + 1]!,
      (a[i + 2]! << 8) | a[i + 3]!,
      (a[i + 4]! << 8) | a[i + 5]!,
      (a[i + 6]! << 8) | a[i + 7]!
    )
  for (; i + 2 <= n; i += 2) s += String.fromCharCode((a[i]! << 8) | a[i + 1]!)
  return i < n ? s + String.fromCharCode(a[i]!) : s
}

/**
 * Keys of address objects seen before. Addresses are never mutated in place (see `Value`), and the
 * hot ones are shared across runs (cached resources and derived addresses hand out the same
 * arrays), so most lookups skip building the key.
 */
const addressKeys = new WeakMap<Uint8Array, string>()

/** The key of an address in the session's maps (see `bytesKey`). */
export const addressKey = (address: Uint8Array): string => {
  let k = addressKeys.get(address)
  if (k === undefined) {
    k = bytesKey(address)
    addressKeys.set(address, k)
  }
  return k
}

/** Map<A, Map<string, V>>: the inner map of `outer`, created on first use. */
const inner = <A, V>(outer: Map<A, Map<string, V>>, a: A): Map<string, V> => {
  let m = outer.get(a)
  if (m === undefined) {
    m = new Map()
    outer.set(a, m)
  }
  return m
}

const EMPTY_GROUP: GroupIndex = { bytes: new Uint8Array(0), offsets: [] }

/**
 * Indexes a group's BCS map (member StructTag → member bytes) by offsets, without decoding the tags
 * into objects or slicing the values: a view reads one or two members of a group per run.
 */
const indexGroup = (bytes: Uint8Array, key: string): GroupIndex => {
  try {
    const r = new BcsReader(bytes)
    const n = r.length(1)
    const offsets: number[] = []
    for (let i = 0; i < n; i++) {
      const tagStart = r.offset
      skipStructTag(r)
      const tagEnd = r.offset
      const len = r.length(1)
      offsets.push(tagStart, tagEnd, r.offset, r.offset + len)
      r.offset += len // `length` checked that `len` bytes remain
    }
    return { bytes, offsets }
  } catch (e) {
    throw new VmError("FAILED_TO_DESERIALIZE_RESOURCE", `resource group ${key}: ${String(e)}`)
  }
}

/** Moves past a StructTag: its address and identifiers without allocating, type arguments decoded. */
const skipStructTag = (r: BcsReader): void => {
  if (r.offset + 32 > r.bytes.length) r.fail("truncated address")
  r.offset += 32
  for (let k = 0; k < 2; k++) {
    const len = r.length(1) // checked against the bytes left
    r.offset += len
  }
  const nArgs = r.length(1)
  for (let i = 0; i < nArgs; i++) readTypeTagAt(r, 1)
}

/**
 * The data cache of one run: globals read from the `StateView` on first touch and kept here, with
 * every write (move_to, move_from, mutation through references, table changes) applied to these
 * copies only. A view's session is thrown away afterwards, so nothing is written back. Resource
 * groups are read whole once, indexed by offsets, and their members decoded on demand.
 */
export class Session {
  /**
   * Slots by type name and address. The name is the tag info's cached string (no concatenation per
   * access); keying by name rather than by type object keeps one slot per type even for type objects
   * built outside the intern tables.
   */
  private readonly resources = new Map<string, Map<string, GlobalSlot>>()
  /** Indexed groups (member tags and values as offsets into the group's bytes), by group and address. */
  private groups: Map<string, Map<string, GroupIndex>> | undefined // created on first use (most runs touch none)
  /** Table entries by handle and key. */
  private tables: Map<string, Map<string, GlobalSlot>> | undefined // created on first use
  readonly events: EmittedEvent[] = []
  /** Handles of tables created in this run (`new_table_handle`). */
  tableCounter = 0
  /** Counter behind unique addresses, aggregator keys and monotonic counters of this run. */
  uniqueCounter = 0n

  constructor(
    readonly view: StateView,
    readonly gas: GasMeter,
    /** Reads of the view's snapshot shared across runs; undefined when the view names none. */
    readonly cache?: StateCache | undefined
  ) {
    this.node = gas.params.sized.absValNode || 40
  }

  /** Memory-tracker units of one value node. */
  private readonly node: number

  /** The group's index at `address`; its read is charged on the first touch in this run. */
  private group(address: AccountAddress, akey: string, group: StructTag): GroupIndex {
    const g = groupInfoOf(group)
    const byAddress = inner((this.groups ??= new Map<string, Map<string, GroupIndex>>()), g.key)
    let index = byAddress.get(akey)
    if (index === undefined) {
      index = this.cache?.groups.get(g.key, akey)
      if (index === undefined) {
        const bytes = this.view.resourceGroup(address, group, g.bytes)
        this.gas.chargeRead(bytes?.length ?? 0)
        index = bytes === undefined ? EMPTY_GROUP : indexGroup(bytes, g.key)
        this.cache?.groups.set(g.key, akey, index, 64 + index.bytes.length + 8 * index.offsets.length)
      } else this.gas.chargeRead(index === EMPTY_GROUP ? 0 : index.bytes.length)
      byAddress.set(akey, index)
    }
    return index
  }

  private readGroupMember(
    address: AccountAddress,
    akey: string,
    group: StructTag,
    member: TagInfo
  ): Uint8Array | undefined {
    const { bytes, offsets } = this.group(address, akey, group)
    const want = member.bytes
    for (let i = 0; i < offsets.length; i += 4) {
      const start = offsets[i]!
      if (offsets[i + 1]! - start !== want.length) continue
      let same = true
      for (let j = 0; j < want.length; j++)
        if (bytes[start + j] !== want[j]) {
          same = false
          break
        }
      if (same) return bytes.subarray(offsets[i + 2]!, offsets[i + 3]!)
    }
    return undefined
  }

  /** A value read from storage counts against the run's memory quota. */
  private loaded(v: Value): Value {
    this.gas.useMemory(heapSize(v, this.node))
    return v
  }

  /**
   * A session's own copy of a stored value, charged to the memory quota as `loaded` would: from the
   * snapshot cache when it holds the bytes decoded as `type`, else decoded (and then cached).
   */
  private fromCache(cached: CachedValue): Value {
    const v = copyValue(cached.value)
    this.gas.useMemory(cached.node === this.node ? cached.size : heapSize(v, this.node))
    return v
  }

  private decoded(bytes: Uint8Array, t: Type): CachedValue {
    const value = deserializeValue(bytes, t)
    return { byteLength: bytes.length, type: t, value, node: this.node, size: heapSize(value, this.node) }
  }

  /** The slot of resource `t` at `address`, loaded on first use. */
  resource(address: AccountAddress, t: StructKind): GlobalSlot {
    const info = tagInfoOf(t)
    const byAddress = inner(this.resources, info.key)
    const akey = addressKey(address)
    let slot = byAddress.get(akey)
    if (slot === undefined) {
      slot = {
        box: [
          this.cache === undefined
            ? this.readResource(address, akey, t, info)
            : this.cachedResource(address, akey, t, info)
        ]
      }
      byAddress.set(akey, slot)
    }
    return slot
  }

  private readResource(address: AccountAddress, akey: string, t: StructKind, info: TagInfo): Value {
    let bytes: Uint8Array | undefined
    if (t.def.groupTag !== undefined) bytes = this.readGroupMember(address, akey, t.def.groupTag, info)
    else {
      bytes = this.view.resource(address, info.tag, info.bytes)
      this.gas.chargeRead(bytes?.length ?? 0)
    }
    return bytes === undefined ? undefined : this.loaded(deserializeValue(bytes, t))
  }

  /** As `readResource`, through the snapshot cache: the same reads charged, in the same order. */
  private cachedResource(address: AccountAddress, akey: string, t: StructKind, info: TagInfo): Value {
    const cache = this.cache!
    let cached = cache.resources.get(info.key, akey)
    if (cached !== undefined && cached.type === t) {
      // A group member: the group's read is charged once per run, as without the cache.
      if (t.def.groupTag !== undefined) this.group(address, akey, t.def.groupTag)
      else this.gas.chargeRead(Math.max(0, cached.byteLength))
      return cached.byteLength < 0 ? undefined : this.fromCache(cached)
    }
    let bytes: Uint8Array | undefined
    if (t.def.groupTag !== undefined) bytes = this.readGroupMember(address, akey, t.def.groupTag, info)
    else {
      bytes = this.view.resource(address, info.tag, info.bytes)
      this.gas.chargeRead(bytes?.length ?? 0)
    }
    cached = bytes === undefined ? absent(t) : this.decoded(bytes, t)
    cache.resources.set(info.key, akey, cached, entryWeight(cached))
    return cached.byteLength < 0 ? undefined : this.fromCache(cached)
  }

  /** The slot of a table entry; `valueType` decodes the stored bytes. */
  tableEntry(handle: AccountAddress, key: Uint8Array, valueType: Type, wrap: (v: Value) => Value): GlobalSlot {
    const hkey = addressKey(handle)
    const entries = inner((this.tables ??= new Map<string, Map<string, GlobalSlot>>()), hkey)
    const k = bytesKey(key)
    let slot = entries.get(k)
    if (slot === undefined) {
      const cache = this.cache
      const cached = cache?.tables.get(hkey, k)
      let value: Value
      if (cached !== undefined && cached.type === valueType) {
        this.gas.chargeRead(Math.max(0, cached.byteLength))
        value = cached.byteLength < 0 ? undefined : this.loaded(wrap(copyValue(cached.value)))
      } else {
        const bytes = this.view.tableItem(handle, key)
        this.gas.chargeRead(bytes?.length ?? 0)
        if (bytes === undefined) {
          value = undefined
          cache?.tables.set(hkey, k, absent(valueType), 64)
        } else {
          const v = deserializeValue(bytes, valueType)
          if (cache !== undefined) {
            const entry = { byteLength: bytes.length, type: valueType, value: v, node: this.node, size: 0 }
            cache.tables.set(hkey, k, entry, entryWeight(entry))
            value = this.loaded(wrap(copyValue(v)))
          } else value = this.loaded(wrap(v))
        }
      }
      slot = { box: [value] }
      entries.set(k, slot)
    }
    return slot
  }
}

const absent = (type: Type): CachedValue => ({ byteLength: -1, type, value: undefined, node: 0, size: 0 })

/** An estimate of a cached entry's footprint: decoded values take several times their bytes. */
const entryWeight = (c: CachedValue): number => 64 + 8 * Math.max(0, c.byteLength)
