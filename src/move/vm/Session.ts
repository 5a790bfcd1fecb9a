import { BcsReader, BcsWriter, toHex } from "../../bcs/index.js"
import type { AccountAddress } from "../../domain/AccountAddress.js"
import { readStructTag, writeStructTag } from "../../domain/TypeTagCodec.js"
import type { StructTag } from "../../domain/TypeTag.js"
import type { GasMeter } from "./GasMeter.js"
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
const tagInfos = new Map<string, TagInfo>()
const MAX_TAG_INFOS = 10_000

const tagInfoOf = (t: StructKind): TagInfo => {
  const closed = t.args.length === 0 ? (t.def as { closedTagInfo?: TagInfo }) : undefined
  if (closed?.closedTagInfo !== undefined) return closed.closedTagInfo
  const name = typeName(t)
  let info = tagInfos.get(name)
  if (info === undefined) {
    const tag = structTagOf(t)
    info = { tag, bytes: structTagBytes(tag), key: name }
    if (tagInfos.size >= MAX_TAG_INFOS) tagInfos.clear()
    tagInfos.set(name, info)
  }
  if (closed !== undefined) closed.closedTagInfo = info
  return info
}

const groupInfos = new Map<string, TagInfo>()
const groupInfoOf = (g: StructTag): TagInfo => {
  const key = `${toHex(g.address)}::${g.module}::${g.name}`
  let info = groupInfos.get(key)
  if (info === undefined) {
    info = { tag: g, bytes: structTagBytes(g), key }
    groupInfos.set(key, info)
  }
  return info
}

/** Hex of an address, memoised per array (VM addresses are never mutated in place). */
const addressHex = new WeakMap<Uint8Array, string>()
export const addressKey = (a: Uint8Array): string => {
  let k = addressHex.get(a)
  if (k === undefined) {
    k = toHex(a)
    addressHex.set(a, k)
  }
  return k
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * The data cache of one run: globals read from the `StateView` on first touch and kept here, with
 * every write (move_to, move_from, mutation through references, table changes) applied to these
 * copies only. A view's session is thrown away afterwards, so nothing is written back. Resource
 * groups are read whole once and their members decoded on demand.
 */
export class Session {
  private readonly resources = new Map<string, GlobalSlot>()
  /** Decoded groups: (member tag bytes, member bytes) pairs, by address and group. */
  private readonly groups = new Map<string, Array<readonly [Uint8Array, Uint8Array]>>()
  private readonly tables = new Map<string, GlobalSlot>()
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
    const gkey = addressKey(address) + g.key
    let members = this.groups.get(gkey)
    if (members === undefined) {
      members = []
      const bytes = this.view.resourceGroup(address, group, g.bytes)
      this.gas.chargeRead(bytes?.length ?? 0)
      if (bytes !== undefined) {
        try {
          const r = new BcsReader(bytes)
          const n = r.length(1)
          for (let i = 0; i < n; i++) {
            const start = r.offset
            readStructTag(r)
            const tag = bytes.subarray(start, r.offset)
            members.push([tag, r.bytesWithLength()])
          }
        } catch (e) {
          throw new VmError("FAILED_TO_DESERIALIZE_RESOURCE", `resource group ${g.key}: ${String(e)}`)
        }
      }
      this.groups.set(gkey, members)
    }
    for (const [tag, value] of members) if (sameBytes(tag, member.bytes)) return value
    return undefined
  }

  /** The slot of resource `t` at `address`, loaded on first use. */
  resource(address: AccountAddress, t: StructKind): GlobalSlot {
    const info = tagInfoOf(t)
    const key = addressKey(address) + info.key
    let slot = this.resources.get(key)
    if (slot === undefined) {
      let bytes: Uint8Array | undefined
      if (t.def.groupTag !== undefined) bytes = this.readGroupMember(address, t.def.groupTag, info)
      else {
        bytes = this.view.resource(address, info.tag, info.bytes)
        this.gas.chargeRead(bytes?.length ?? 0)
      }
      slot = { box: [bytes === undefined ? undefined : deserializeValue(bytes, t)] }
      this.resources.set(key, slot)
    }
    return slot
  }

  /** The slot of a table entry; `valueType` decodes the stored bytes. */
  tableEntry(handle: AccountAddress, key: Uint8Array, valueType: Type, wrap: (v: Value) => Value): GlobalSlot {
    const k = toHex(handle) + ":" + toHex(key)
    let slot = this.tables.get(k)
    if (slot === undefined) {
      const bytes = this.view.tableItem(handle, key)
      this.gas.chargeRead(bytes?.length ?? 0)
      slot = { box: [bytes === undefined ? undefined : wrap(deserializeValue(bytes, valueType))] }
      this.tables.set(k, slot)
    }
    return slot
  }
}
