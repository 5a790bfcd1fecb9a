import { StructValue } from "../Value.js"
import type { NativeFunction } from "./NativeContext.js"

/**
 * `0x1::state_storage::get_state_storage_usage_only_at_epoch_beginning(): Usage {items, bytes}`:
 * the storage usage the state view reports (`StateView.storageUsage`, what the store holds at the
 * version being executed on); zero when the view does not track it.
 */
export const stateStorageNatives: Record<string, NativeFunction> = {
  get_state_storage_usage_only_at_epoch_beginning: (ctx) => {
    const usage = ctx.session.view.storageUsage?.() ?? { items: 0n, bytes: 0n }
    return [new StructValue(-1, [usage.items, usage.bytes])]
  }
}
