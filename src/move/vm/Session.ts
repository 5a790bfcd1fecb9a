import { BcsReader, BcsWriter, equalBytes, toHex } from "../../bcs/index.js"
import { slabBytes } from "../../bcs/slabBytes.js"
import type { AccountAddress } from "../../domain/AccountAddress.js"
import type { ContractEvent } from "../../domain/ContractEvent.js"
import type { StateKey } from "../../domain/StateKey.js"
import { sortInPlace } from "../../domain/sortInPlace.js"
import type { ChangeSet } from "../../domain/Transaction.js"
import type { StructTag, TypeTag } from "../../domain/TypeTag.js"
import { readTypeTagAt, writeStructTag } from "../../domain/TypeTagCodec.js"
import type { WriteOp, WriteSetEntry } from "../../domain/WriteSet.js"
import { compareKeyBytes, makeWriteSetEntry, sortEntries } from "../../domain/WriteSetCodec.js"
import type { GasMeter } from "./GasMeter.js"
import { heapSize } from "./MemorySize.js"
import type { CachedValue, GroupIndex, StateCache } from "./StateCache.js"
import { cachedAccessPathKey, type StateView, tableItemKey } from "./StateView.js"
import type { UserTransactionContext } from "./TransactionContext.js"
import { type StructKind, structTagOf, type Type, typeName, typeToTag } from "./Type.js"
import { copyValue, type DirtyMark, generalBox, StructValue, type Value } from "./Value.js"
import { deserializeValue, serializeOutput } from "./ValueBcs.js"
import { VmError, vmError } from "./VmError.js"
import { addressKey, bytesKey } from "../../domain/mapKeys.js"

/**
 * A global value's slot (a resource, a resource-group member or a table item): `box[0]` is the
 * value, `undefined` when absent (or moved out). `existed` says whether the session's view held a
 * value; `dirty` is set by a write through a reference rooted here or by move_to. Together they
 * give the slot's effect at `finish` exactly as the reference's `GlobalValue` does: absent before
 * and present now = creation; present before and absent now = deletion; present both times =
 * modification iff dirty (even when the bytes are unchanged).
 */
export class GlobalSlot implements DirtyMark {
  dirty = false
  readonly box: Value[]
  constructor(
    value: Value,
    readonly existed: boolean,
    /** The resource's address, or the table's handle. */
    readonly address: AccountAddress,
    /** The resource's struct type, or the table's value type. */
    readonly type: Type,
    /** A table item's key bytes; undefined for a resource. */
    readonly key: Uint8Array | undefined,
    /** A table item held as `Box<V>` (the table natives) rather than as the bare value (aggregator v1). */
    readonly boxed: boolean
  ) {
    // Always the same hidden class, whatever the value (Value.ts, generalArray).
    this.box = generalBox(value)
  }
}

/** An event emitted during the run: a handle event (`guid`, `count` given) or a module event. */
export interface EmittedEvent {
  readonly type: Type
  readonly value: Value
  /** BCS of the handle's GUID (creation number, address); undefined for a module event. */
  readonly guid?: Uint8Array | undefined
  readonly count?: bigint | undefined
}

/** What `code::request_publish(_with_allowed_deps)` asked for; the executor verifies and stages it. */
export interface PublishRequest {
  readonly destination: AccountAddress
  readonly bundle: ReadonlyArray<Uint8Array>
  readonly expectedModules: ReadonlyArray<string>
  /** Undefined when any dependency is allowed (`request_publish`). */
  readonly allowedDeps: ReadonlyArray<{ readonly account: AccountAddress; readonly moduleName: string }> | undefined
  /** The package's upgrade policy byte (0 arbitrary, 1 compatible, 2 immutable). */
  readonly upgradePolicy: number
}

/** What a session runs for (see `SessionId`, `UserTransactionContext`). */
export interface SessionContext {
  readonly txnHash: Uint8Array
  readonly scriptHash: Uint8Array
  readonly user: UserTransactionContext | undefined
  /** The session's place in its transaction (`sessionCounter`). */
  readonly sessionCounter: number
}

const ZERO_HASH = new Uint8Array(32)
const NO_BYTES = new Uint8Array(0)

/** A module written by this session (published or staged by the executor). */
interface StagedModule {
  readonly address: AccountAddress
  readonly name: string
  readonly bytes: Uint8Array
  readonly existed: boolean
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
  /** Tables created in this session (`new_table_handle`): the reference's `new_tables_counter`. */
  tableCounter = 0
  /** AUIDs issued (`generate_unique_address`): the reference's `auid_counter`. */
  auidCounter = 0n
  /** `monotonically_increasing_counter` calls: the reference's `local_counter` (u16). */
  localCounter = 0
  /** Aggregators (v1) created: the reference's `aggregator_v1_counter`. */
  aggregatorCounter = 0
  /** Whether the running entry function is `#[randomness]` (randomness natives refuse otherwise). */
  unbiasable = false
  /** The randomness natives' transaction-local counter (8 bytes, little-endian). */
  readonly randomnessCounter = new Uint8Array(8)
  /** The last `code::request_publish` of this session, until the executor takes it. */
  publishRequest: PublishRequest | undefined
  /** Modules written by this session, by `address::name` key. */
  private modules: Map<string, StagedModule> | undefined

  constructor(
    readonly view: StateView,
    /** The meter reads are charged to; the VM sets it per call (unmetered for system calls). */
    public gas: GasMeter,
    /** Reads of the view's snapshot shared across runs; undefined when the view names none. */
    readonly cache?: StateCache | undefined,
    context?: SessionContext
  ) {
    this.node = gas.params.sized.absValNode || 40
    this.context = context
    this.scriptHash = context?.scriptHash ?? NO_BYTES
    this.user = context?.user
    this.sessionCounter = context?.sessionCounter ?? 0
  }

  /** The session's place in its transaction (see `sessionCounter` in SessionId). */
  readonly sessionCounter: number

  private readonly context: SessionContext | undefined

  /**
   * The session id's hash: the "transaction hash" natives see (get_txn_hash, AUIDs, table
   * handles, aggregator keys). Zero for views. Read from the context when a native asks (a
   * context may compute it lazily: most sessions never need it).
   */
  get txnHash(): Uint8Array {
    return this.context?.txnHash ?? ZERO_HASH
  }
  /** `get_script_hash`: the script's hash in a script transaction's sessions, else empty. */
  readonly scriptHash: Uint8Array
  /** The user transaction (transaction_context natives); undefined for views and system calls. */
  readonly user: UserTransactionContext | undefined

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
        this.read(bytes?.length ?? 0)
        index = bytes === undefined ? EMPTY_GROUP : indexGroup(bytes, g.key)
        this.cache?.groups.set(g.key, akey, index, 64 + index.bytes.length + 8 * index.offsets.length)
      } else this.read(index === EMPTY_GROUP ? 0 : index.bytes.length)
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

  /**
   * Bytes read from the view by the last `resource` / `tableEntry` call, or -1 when it was served
   * from this session (natives that load charge their own per-byte terms from it).
   */
  loadedBytes = -1
  /** Whether reads are charged as IO (not when a native loads: it charges its own parameters). */
  private ioCharged = true

  private read(bytes: number): void {
    this.loadedBytes = bytes
    if (this.ioCharged) this.gas.chargeRead(bytes)
  }

  /**
   * The slot of resource `t` at `address`, loaded on first use. A load is IO gas, except when a
   * native asks (`native`: `object::exists_at`, `storage_slot`), which charges its own parameters.
   */
  resource(address: AccountAddress, t: StructKind, native = false): GlobalSlot {
    this.loadedBytes = -1
    if (native) {
      this.ioCharged = false
      try {
        return this.resourceSlot(address, t)
      } finally {
        this.ioCharged = true
      }
    }
    return this.resourceSlot(address, t)
  }

  private resourceSlot(address: AccountAddress, t: StructKind): GlobalSlot {
    const info = tagInfoOf(t)
    const byAddress = inner(this.resources, info.key)
    const akey = addressKey(address)
    let slot = byAddress.get(akey)
    if (slot === undefined) {
      const value =
        this.cache === undefined
          ? this.readResource(address, akey, t, info)
          : this.cachedResource(address, akey, t, info)
      slot = new GlobalSlot(value, value !== undefined, address, t, undefined, false)
      byAddress.set(akey, slot)
    }
    return slot
  }

  private readResource(address: AccountAddress, akey: string, t: StructKind, info: TagInfo): Value {
    if (t.def.groupTag !== undefined) {
      const member = this.readGroupMember(address, akey, t.def.groupTag, info)
      return member === undefined ? undefined : this.loaded(deserializeValue(member, t))
    }
    const bytes = this.view.resource(address, info.tag, info.bytes)
    this.read(bytes?.length ?? 0)
    if (bytes === undefined) return undefined
    // A view without a snapshot cache may keep decoded values by bytes object (a block's overlay,
    // StateView.decodedResources): decoded once per transaction, each session a copy charged as `loaded`.
    const decoded = this.view.decodedResources
    if (decoded === undefined) return this.loaded(deserializeValue(bytes, t))
    let cached = decoded.get(bytes)
    if (cached === undefined || cached.type !== t) {
      cached = this.decoded(bytes, t)
      decoded.set(bytes, cached)
    }
    return this.fromCache(cached)
  }

  /** As `readResource`, through the snapshot cache: the same reads charged, in the same order. */
  private cachedResource(address: AccountAddress, akey: string, t: StructKind, info: TagInfo): Value {
    const cache = this.cache!
    let cached = cache.resources.get(info.key, akey)
    if (cached !== undefined && cached.type === t) {
      // A group member: the group's read is charged once per run, as without the cache.
      if (t.def.groupTag !== undefined) this.group(address, akey, t.def.groupTag)
      else this.read(Math.max(0, cached.byteLength))
      return cached.byteLength < 0 ? undefined : this.fromCache(cached)
    }
    let bytes: Uint8Array | undefined
    if (t.def.groupTag !== undefined) bytes = this.readGroupMember(address, akey, t.def.groupTag, info)
    else {
      bytes = this.view.resource(address, info.tag, info.bytes)
      this.read(bytes?.length ?? 0)
    }
    cached = bytes === undefined ? absent(t) : this.decoded(bytes, t)
    cache.resources.set(info.key, akey, cached, entryWeight(cached))
    return cached.byteLength < 0 ? undefined : this.fromCache(cached)
  }

  /** The slot of a table entry; `valueType` decodes the stored bytes. */
  tableEntry(handle: AccountAddress, key: Uint8Array, valueType: Type, boxed: boolean): GlobalSlot {
    // Table loads are not IO gas: the table natives charge `table.common.load.*` from `loadedBytes`.
    this.loadedBytes = -1
    const wrap = boxed ? boxValue : identity
    const hkey = addressKey(handle)
    const entries = inner((this.tables ??= new Map<string, Map<string, GlobalSlot>>()), hkey)
    const k = bytesKey(key)
    let slot = entries.get(k)
    if (slot === undefined) {
      const cache = this.cache
      const cached = cache?.tables.get(hkey, k)
      let value: Value
      if (cached !== undefined && cached.type === valueType) {
        this.loadedBytes = Math.max(0, cached.byteLength)
        value = cached.byteLength < 0 ? undefined : this.loaded(wrap(copyValue(cached.value)))
      } else {
        const bytes = this.view.tableItem(handle, key)
        this.loadedBytes = bytes?.length ?? 0
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
      slot = new GlobalSlot(value, value !== undefined, handle, valueType, key, boxed)
      entries.set(k, slot)
    }
    return slot
  }

  /** A module of this session's view, or one it staged (published modules, visible to later calls). */
  stagedModule(address: AccountAddress, name: string): Uint8Array | undefined {
    return this.modules?.get(`${addressKey(address)}::${name}`)?.bytes
  }

  /** Writes `bytes` as module `address::name` when the session finishes. */
  stageModule(address: AccountAddress, name: string, bytes: Uint8Array, existed: boolean): void {
    const key = `${addressKey(address)}::${name}`
    const prior = this.modules?.get(key)
    ;(this.modules ??= new Map()).set(key, { address, name, bytes, existed: prior?.existed ?? existed })
  }

  /**
   * The session's effects relative to its view: the write set in BCS key order (plain Creation /
   * Modification / Deletion: the executor adds state-value metadata when it charges storage) and
   * the events in emission order. Resource groups are written whole: the members read from the
   * view, with this session's changes applied, in BCS order of their tags.
   */
  finish(): ChangeSet {
    const entries: WriteSetEntry[] = []
    // By the group's key, then by address: strings kept with their tag and address, hashed once (a
    // key joined per member write was a new string to hash at every lookup). Members of one group
    // come from different modules, each with its own group tag object: keyed by name, not object.
    let groups: Map<string, Map<string, GroupChange>> | undefined
    for (const byAddress of this.resources.values())
      for (const slot of byAddress.values()) {
        const op = effectOf(slot)
        if (op === undefined) continue
        const t = slot.type as StructKind
        const info = tagInfoOf(t)
        const data = op === DELETE ? undefined : serializeOutput(slot.box[0], t)
        const group = t.def.groupTag
        if (group !== undefined) {
          const g = groupInfoOf(group)
          const akey = addressKey(slot.address)
          const sameGroup = inner<string, GroupChange>((groups ??= new Map()), g.key)
          let change = sameGroup.get(akey)
          if (change === undefined) {
            const index = this.groups?.get(g.key)?.get(akey)
            if (index === undefined)
              return vmError("UNKNOWN_INVARIANT_VIOLATION_ERROR", "group member without its group")
            change = { address: slot.address, group: g, index, members: [] }
            sameGroup.set(akey, change)
          }
          change.members.push({ tagBytes: info.bytes, data })
          continue
        }
        const key: StateKey = {
          _tag: "AccessPath",
          address: slot.address,
          path: { _tag: "Resource", struct: info.tag }
        }
        entries.push({ key, keyBytes: cachedAccessPathKey(slot.address, 1, info.bytes), op: writeOp(op, data) })
      }
    if (groups !== undefined)
      for (const sameGroup of groups.values())
        for (const change of sameGroup.values()) {
          const entry = groupWrite(change)
          if (entry !== undefined) entries.push(entry)
        }
    if (this.tables !== undefined)
      for (const byKey of this.tables.values())
        for (const slot of byKey.values()) {
          const op = effectOf(slot)
          if (op === undefined) continue
          const v = slot.box[0]
          const data =
            op === DELETE ? undefined : serializeOutput(slot.boxed ? (v as StructValue).fields[0] : v, slot.type)
          const key: StateKey = { _tag: "TableItem", handle: slot.address, key: slot.key! }
          entries.push({ key, keyBytes: tableItemKey(slot.address, slot.key!), op: writeOp(op, data) })
        }
    if (this.modules !== undefined)
      for (const m of this.modules.values()) {
        const key: StateKey = {
          _tag: "AccessPath",
          address: m.address,
          path: { _tag: "Code", module: { address: m.address, name: m.name } }
        }
        entries.push(makeWriteSetEntry(key, writeOp(m.existed ? MODIFY : CREATE, m.bytes)))
      }
    sortEntries(entries)
    return { writeSet: { entries }, events: this.events.map(contractEvent) }
  }
}

const boxValue = (v: Value): Value => new StructValue(-1, [v])
const identity = (v: Value): Value => v

const CREATE = 0
const MODIFY = 1
const DELETE = 2
type Effect = typeof CREATE | typeof MODIFY | typeof DELETE

/** The slot's effect (see `GlobalSlot`), or undefined when it has none. */
const effectOf = (slot: GlobalSlot): Effect | undefined => {
  const present = slot.box[0] !== undefined
  if (slot.existed) return present ? (slot.dirty ? MODIFY : undefined) : DELETE
  return present ? CREATE : undefined
}

const writeOp = (effect: Effect, data: Uint8Array | undefined): WriteOp =>
  effect === CREATE
    ? { _tag: "Creation", data: data! }
    : effect === MODIFY
      ? { _tag: "Modification", data: data! }
      : { _tag: "Deletion" }

/** A resource group's changed members; `data` undefined = the member was removed. */
interface GroupChange {
  readonly address: AccountAddress
  readonly group: TagInfo
  readonly index: GroupIndex
  readonly members: Array<{ readonly tagBytes: Uint8Array; readonly data: Uint8Array | undefined }>
}

/**
 * The group's new bytes: its stored members with the changes applied, as the BCS map
 * `StructTag → bytes` (sorted by the tags' BCS bytes, as BCS orders maps). Creation when the group
 * did not exist, deletion when no member is left.
 */
/** Bytes of `n` as ULEB128. */
const ulebLength = (n: number): number => {
  let len = 1
  for (let x = n; x >= 0x80; x = Math.floor(x / 128)) len++
  return len
}

/** Writes `n` as ULEB128 at `o`; the offset after it. */
const putUleb = (out: Uint8Array, o: number, n: number): number => {
  let x = n
  while (x >= 0x80) {
    out[o++] = (x & 0x7f) | 0x80
    x = Math.floor(x / 128)
  }
  out[o++] = x
  return o
}

/** A group's members in BCS map order: by their struct tags' bytes. */
const compareMemberTags = (a: { readonly tag: Uint8Array }, b: { readonly tag: Uint8Array }): number =>
  compareKeyBytes(a.tag, b.tag)

const groupWrite = (change: GroupChange): WriteSetEntry | undefined => {
  const { bytes, offsets } = change.index
  // A group holds a handful of members: found by their tag bytes in a list (no map keys to build).
  const members: Array<{ tag: Uint8Array; data: Uint8Array }> = []
  for (let i = 0; i < offsets.length; i += 4)
    members.push({
      tag: bytes.subarray(offsets[i]!, offsets[i + 1]!),
      data: bytes.subarray(offsets[i + 2]!, offsets[i + 3]!)
    })
  for (const m of change.members) {
    const at = members.findIndex((x) => equalBytes(x.tag, m.tagBytes))
    if (m.data === undefined) {
      if (at >= 0) members.splice(at, 1)
    } else if (at >= 0) members[at] = { tag: m.tagBytes, data: m.data }
    else members.push({ tag: m.tagBytes, data: m.data })
  }
  const existed = offsets.length > 0
  const key: StateKey = {
    _tag: "AccessPath",
    address: change.address,
    path: { _tag: "ResourceGroup", struct: change.group.tag }
  }
  const keyBytes = cachedAccessPathKey(change.address, 2, change.group.bytes)
  if (members.length === 0) return existed ? { key, keyBytes, op: { _tag: "Deletion" } } : undefined
  const sorted = sortInPlace(members, compareMemberTags)
  // BCS(BTreeMap<StructTag, Vec<u8>>) written into an array of its exact size (no copy at the end).
  let size = ulebLength(sorted.length)
  for (const m of sorted) size += m.tag.length + ulebLength(m.data.length) + m.data.length
  // A block output (the group's new value, written to the ledger with the block): from a slab.
  const data = slabBytes(size)
  let o = putUleb(data, 0, sorted.length)
  for (const m of sorted) {
    data.set(m.tag, o)
    o = putUleb(data, o + m.tag.length, m.data.length)
    data.set(m.data, o)
    o += m.data.length
  }
  return { key, keyBytes, op: existed ? { _tag: "Modification", data } : { _tag: "Creation", data } }
}

/**
 * By (interned) type object: an event type's tag, built once per instantiation. A block keeps its
 * events until its commit, and a transfer emits three whose tags were each a new object tree
 * (~130 bytes) copied into V8's old generation with them; type tags are never mutated, so events
 * of one type share one.
 */
const eventTypeTags = new WeakMap<Type, TypeTag>()

const eventTypeTag = (t: Type): TypeTag => {
  let tag = eventTypeTags.get(t)
  if (tag === undefined) {
    tag = typeToTag(t)
    eventTypeTags.set(t, tag)
  }
  return tag
}

/** A handle event's GUID is BCS `{creation_num: u64, addr: address}`: the event key. */
const contractEvent = (e: EmittedEvent): ContractEvent => {
  const typeTag = eventTypeTag(e.type)
  const data = serializeOutput(e.value, e.type)
  if (e.guid === undefined) return { _tag: "V2", typeTag, data }
  const g = e.guid
  if (g.length !== 40) return vmError("EVENT_KEY_MISMATCH", `event GUID of ${g.length} bytes`)
  const creationNumber = new DataView(g.buffer, g.byteOffset, 8).getBigUint64(0, true)
  return {
    _tag: "V1",
    key: { creationNumber, accountAddress: g.slice(8, 40) },
    sequenceNumber: e.count ?? 0n,
    typeTag,
    data
  }
}

const absent = (type: Type): CachedValue => ({ byteLength: -1, type, value: undefined, node: 0, size: 0 })

/** An estimate of a cached entry's footprint: decoded values take several times their bytes. */
const entryWeight = (c: CachedValue): number => 64 + 8 * Math.max(0, c.byteLength)
