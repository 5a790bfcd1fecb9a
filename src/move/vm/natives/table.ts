import { sha3 as sha3_256 } from "../../../domain/hash.js"
import type { Type } from "../Type.js"
import { Ref, type StructValue, type Value } from "../Value.js"
import { serializeValue } from "../ValueBcs.js"
import { chargeParam } from "./helpers.js"
import { type NativeContext, type NativeFunction, nativeAbort } from "./NativeContext.js"

/** The table extension's abort codes: `(100 << 8) + 7` already exists, `(101 << 8) + 7` not found. */
export const E_ALREADY_EXISTS = 25607n
export const E_NOT_FOUND = 25863n

const handleOf = (table: Value): Uint8Array => ((table as Ref).get() as StructValue).fields[0] as Uint8Array

/**
 * The item's slot (items are stored as the BCS of V; in the VM an item is a `Box<V>` struct so that
 * references point into it), charged as the reference's table natives: `<op>.per_byte_serialized`
 * per key byte, `common.load.base` on every access and, when the item is read from storage,
 * `common.load.base_new` + `per_byte` × bytes in whole 4 KiB pages (gas feature 12+), or
 * `base_new` + `failure` when it is absent.
 */
const slotOf = (ctx: NativeContext, op: string, tyArgs: ReadonlyArray<Type>, table: Value, key: Value) => {
  const keyBytes = serializeValue(key instanceof Ref ? key.get() : key, tyArgs[0]!)
  chargeParam(ctx, `table.${op}.per_byte_serialized`, keyBytes.length)
  const slot = ctx.session.tableEntry(handleOf(table), keyBytes, tyArgs[1]!, true)
  chargeParam(ctx, "table.common.load.base")
  const loaded = ctx.session.loadedBytes
  if (loaded >= 0) {
    chargeParam(ctx, "table.common.load.base_new")
    if (slot.box[0] === undefined) chargeParam(ctx, "table.common.load.failure")
    else {
      const page = ctx.gas.params.readPageSize
      chargeParam(ctx, "table.common.load.per_byte", page > 0 ? Math.ceil(loaded / page) * page : loaded)
    }
  }
  return slot
}

/**
 * `0x1::table` natives over the session's table cache. A new table's handle is the first 32 bytes
 * of sha3-256(session hash ‖ u32 big-endian count of tables created so far in the session), as the
 * reference derives it.
 */
export const tableNatives: Record<string, NativeFunction> = {
  new_table_handle: (ctx) => {
    const buf = new Uint8Array(36)
    buf.set(ctx.session.txnHash, 0)
    new DataView(buf.buffer).setUint32(32, ctx.session.tableCounter++, false)
    return [sha3_256(buf)]
  },
  add_box: (ctx, tyArgs, [t, k, v]) => {
    const slot = slotOf(ctx, "add_box", tyArgs, t, k)
    if (slot.box[0] !== undefined) return nativeAbort(ctx, E_ALREADY_EXISTS)
    slot.box[0] = v
    slot.dirty = true
    return []
  },
  borrow_box: (ctx, tyArgs, [t, k]) => {
    const slot = slotOf(ctx, "borrow_box", tyArgs, t, k)
    if (slot.box[0] === undefined) return nativeAbort(ctx, E_NOT_FOUND)
    return [new Ref(slot.box, 0, slot)]
  },
  borrow_box_mut: (ctx, tyArgs, [t, k]) => {
    const slot = slotOf(ctx, "borrow_box", tyArgs, t, k)
    if (slot.box[0] === undefined) return nativeAbort(ctx, E_NOT_FOUND)
    return [new Ref(slot.box, 0, slot)]
  },
  contains_box: (ctx, tyArgs, [t, k]) => [slotOf(ctx, "contains_box", tyArgs, t, k).box[0] !== undefined],
  remove_box: (ctx, tyArgs, [t, k]) => {
    const slot = slotOf(ctx, "remove_box", tyArgs, t, k)
    const v = slot.box[0]
    if (v === undefined) return nativeAbort(ctx, E_NOT_FOUND)
    slot.box[0] = undefined
    return [v]
  },
  destroy_empty_box: () => [],
  drop_unchecked_box: () => []
}
