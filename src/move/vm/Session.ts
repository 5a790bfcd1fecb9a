import { BcsReader, BcsWriter, toHex } from "../../bcs/index.js"
import type { AccountAddress } from "../../domain/AccountAddress.js"
import { readTypeTagAt, writeStructTag } from "../../domain/TypeTagCodec.js"
import type { StructTag } from "../../domain/TypeTag.js"
import type { GasMeter } from "./GasMeter.js"
import { heapSize } from "./MemorySize.js"
import type { StateView } from "./StateView.js"
import { type StructKind, structTagOf, type Type, typeName } from "./Type.js"
import type { Value } from "./Value.js"
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

/** The key of an address in the session's maps (see `bytesKey`). */
export const addressKey = bytesKey

/** Map<A, Map<string, V>>: the inner map of `outer`, created on first use. */
const inner = <A, V>(outer: Map<A, Map<string, V>>, a: A): Map<string, V> => {
  let m = outer.get(a)
  if (m === undefined) {
    m = new Map()
    outer.set(a, m)
  }
  return m
}

/** A resource group's bytes and, per member, [tag start, tag end, value start, value end). */
interface GroupIndex {
  readonly bytes: Uint8Array
  readonly offsets: ReadonlyArray<number>
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
  private readonly groups = new Map<string, Map<string, GroupIndex>>()
  /** Table entries by handle and key. */
  private readonly tables = new Map<string, Map<string, GlobalSlot>>()
  readonly events: EmittedEvent[] = []
  /** Handles of tables created in this run (`new_table_handle`). */
  tableCounter = 0
  /** Counter behind unique addresses, aggregator keys and monotonic counters of this run. */
  uniqueCounter = 0n

  constructor(
    readonly view: StateView,
    readonly gas: GasMeter
  ) {}

  private readGroupMember(address: AccountAddress, group: StructTag, member: TagInfo): Uint8Array | undefined {
    const g = groupInfoOf(group)
    const byAddress = inner(this.groups, g.key)
    const akey = addressKey(address)
    let index = byAddress.get(akey)
    if (index === undefined) {
      const bytes = this.view.resourceGroup(address, group, g.bytes)
      this.gas.chargeRead(bytes?.length ?? 0)
      index = bytes === undefined ? EMPTY_GROUP : indexGroup(bytes, g.key)
      byAddress.set(akey, index)
    }
    const { bytes, offsets } = index
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
    this.gas.useMemory(heapSize(v, this.gas.params.sized.absValNode || 40))
    return v
  }

  /** The slot of resource `t` at `address`, loaded on first use. */
  resource(address: AccountAddress, t: StructKind): GlobalSlot {
    const info = tagInfoOf(t)
    const byAddress = inner(this.resources, info.key)
    const key = addressKey(address)
    let slot = byAddress.get(key)
    if (slot === undefined) {
      let bytes: Uint8Array | undefined
      if (t.def.groupTag !== undefined) bytes = this.readGroupMember(address, t.def.groupTag, info)
      else {
        bytes = this.view.resource(address, info.tag, info.bytes)
        this.gas.chargeRead(bytes?.length ?? 0)
      }
      slot = { box: [bytes === undefined ? undefined : this.loaded(deserializeValue(bytes, t))] }
      byAddress.set(key, slot)
    }
    return slot
  }

  /** The slot of a table entry; `valueType` decodes the stored bytes. */
  tableEntry(handle: AccountAddress, key: Uint8Array, valueType: Type, wrap: (v: Value) => Value): GlobalSlot {
    const entries = inner(this.tables, addressKey(handle))
    const k = bytesKey(key)
    let slot = entries.get(k)
    if (slot === undefined) {
      const bytes = this.view.tableItem(handle, key)
      this.gas.chargeRead(bytes?.length ?? 0)
      slot = { box: [bytes === undefined ? undefined : this.loaded(wrap(deserializeValue(bytes, valueType)))] }
      entries.set(k, slot)
    }
    return slot
  }
}
