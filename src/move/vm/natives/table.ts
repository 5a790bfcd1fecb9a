import { sha3 as sha3_256 } from "../../../domain/hash.js"
import type { Type } from "../Type.js"
import { Ref, type StructValue, type Value } from "../Value.js"
import { serializeValue } from "../ValueBcs.js"
import { type NativeContext, type NativeFunction, nativeAbort } from "./NativeContext.js"

/** The table extension's abort codes: `(100 << 8) + 7` already exists, `(101 << 8) + 7` not found. */
export const E_ALREADY_EXISTS = 25607n
export const E_NOT_FOUND = 25863n

const handleOf = (table: Value): Uint8Array => ((table as Ref).get() as StructValue).fields[0] as Uint8Array

/** Items are stored as the BCS of V; in the VM an item is a `Box<V>` struct so that references point into it. */
const slotOf = (ctx: NativeContext, tyArgs: ReadonlyArray<Type>, table: Value, key: Value) => {
  const keyBytes = serializeValue(key instanceof Ref ? key.get() : key, tyArgs[0]!)
  ctx.gas.charge(ctx.gas.params.nativePerByte * keyBytes.length)
  return ctx.session.tableEntry(handleOf(table), keyBytes, tyArgs[1]!, true)
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
    const slot = slotOf(ctx, tyArgs, t, k)
    if (slot.box[0] !== undefined) return nativeAbort(ctx, E_ALREADY_EXISTS)
    slot.box[0] = v
    slot.dirty = true
    return []
  },
  borrow_box: (ctx, tyArgs, [t, k]) => {
    const slot = slotOf(ctx, tyArgs, t, k)
    if (slot.box[0] === undefined) return nativeAbort(ctx, E_NOT_FOUND)
    return [new Ref(slot.box, 0, slot)]
  },
  borrow_box_mut: (ctx, tyArgs, [t, k]) => {
    const slot = slotOf(ctx, tyArgs, t, k)
    if (slot.box[0] === undefined) return nativeAbort(ctx, E_NOT_FOUND)
    return [new Ref(slot.box, 0, slot)]
  },
  contains_box: (ctx, tyArgs, [t, k]) => [slotOf(ctx, tyArgs, t, k).box[0] !== undefined],
  remove_box: (ctx, tyArgs, [t, k]) => {
    const slot = slotOf(ctx, tyArgs, t, k)
    const v = slot.box[0]
    if (v === undefined) return nativeAbort(ctx, E_NOT_FOUND)
    slot.box[0] = undefined
    return [v]
  },
  destroy_empty_box: () => [],
  drop_unchecked_box: () => []
}
