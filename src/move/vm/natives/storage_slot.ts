import type { StructKind } from "../Type.js"
import { Ref, type StructValue } from "../Value.js"
import { chargeParam } from "./helpers.js"
import { type NativeContext, type NativeFunction, nativeAbort } from "./NativeContext.js"

/** `storage_slot::ESTORAGE_SLOT_NOT_FOUND`. */
const ESTORAGE_SLOT_NOT_FOUND = 2n

/**
 * `borrow_storage_slot_resource<T, BR>(slot: &StorageSlot<T>): &BR` (and `_mut`): a reference to
 * the resource `BR` (`StorageSlotResource<T>`) stored at `slot.addr`, like a global borrow; base
 * plus `per_byte_loaded` when it is read from storage.
 */
const borrow =
  (op: "borrow" | "borrow_mut"): NativeFunction =>
  (ctx: NativeContext, tyArgs, [slot]) => {
    const addr = ((slot as Ref).get() as StructValue).fields[0] as Uint8Array
    const global = ctx.session.resource(addr, tyArgs[1] as StructKind, true)
    if (ctx.session.loadedBytes >= 0)
      chargeParam(ctx, `aptos_framework.storage_slot.${op}.per_byte_loaded`, ctx.session.loadedBytes)
    if (global.box[0] === undefined) return nativeAbort(ctx, ESTORAGE_SLOT_NOT_FOUND)
    return [new Ref(global.box, 0, global)]
  }

export const storageSlotNatives: Record<string, NativeFunction> = {
  borrow_storage_slot_resource: borrow("borrow"),
  borrow_storage_slot_resource_mut: borrow("borrow_mut")
}
