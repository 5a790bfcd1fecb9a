import type { NativeFunction } from "./NativeContext.js"

/**
 * `0x1::event`: events are recorded in the session in emission order (a view discards them).
 * A handle event keeps its GUID bytes (BCS `{creation_num, addr}`: the event key) and the handle's
 * counter (its sequence number).
 */
export const eventNatives: Record<string, NativeFunction> = {
  write_to_event_store: (ctx, [t], [guid, count, msg]) => {
    ctx.session.events.push({ type: t!, value: msg, guid: Uint8Array.from(guid as number[]), count: count as bigint })
    return []
  },
  write_module_event_to_store: (ctx, [t], [msg]) => {
    ctx.session.events.push({ type: t!, value: msg })
    return []
  }
}
