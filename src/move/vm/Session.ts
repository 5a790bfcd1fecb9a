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

/**
 * The data cache of one run: globals read from the `StateView` on first touch and kept here, with
 * every write (move_to, move_from, mutation through references, table changes) applied to these
 * copies only. A view's session is thrown away afterwards, so nothing is written back. Resource
 * groups are read whole once and their members decoded on demand.
 */
export class Session {
  private readonly resources = new Map<string, GlobalSlot>()
  private readonly groups = new Map<string, Map<string, Uint8Array>>()
  private readonly tables = new Map<string, GlobalSlot>()
  readonly events: EmittedEvent[] = []
  /** Handles of tables created in this run (`new_table_handle`). */
  tableCounter = 0

  constructor(
    readonly view: StateView,
    readonly gas: GasMeter
  ) {}

  private readGroupMember(address: AccountAddress, group: StructTag, member: StructTag): Uint8Array | undefined {
    const gkey = toHex(address) + typeKeyOfTag(group)
    let g = this.groups.get(gkey)
    if (g === undefined) {
      g = new Map()
      const bytes = this.view.resourceGroup(address, group)
      this.gas.chargeRead(bytes?.length ?? 0)
      if (bytes !== undefined) {
        try {
          const r = new BcsReader(bytes)
          const n = r.length(1)
          for (let i = 0; i < n; i++) {
            const tag = readStructTag(r)
            g.set(toHex(structTagBytes(tag)), r.bytesWithLength())
          }
        } catch (e) {
          throw new VmError("FAILED_TO_DESERIALIZE_RESOURCE", `resource group ${typeKeyOfTag(group)}: ${String(e)}`)
        }
      }
      this.groups.set(gkey, g)
    }
    return g.get(toHex(structTagBytes(member)))
  }

  /** The slot of resource `t` at `address`, loaded on first use. */
  resource(address: AccountAddress, t: StructKind): GlobalSlot {
    const key = toHex(address) + typeName(t)
    let slot = this.resources.get(key)
    if (slot === undefined) {
      const tag = structTagOf(t)
      let bytes: Uint8Array | undefined
      if (t.def.groupTag !== undefined) bytes = this.readGroupMember(address, t.def.groupTag, tag)
      else {
        bytes = this.view.resource(address, tag)
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

const typeKeyOfTag = (t: StructTag): string => toHex(structTagBytes(t))
