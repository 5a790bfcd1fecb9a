import type { NativeFunction } from "./NativeContext.js"

/** `0x1::event`: events are recorded in the run's session (a view discards them). */
export const eventNatives: Record<string, NativeFunction> = {
  write_to_event_store: (ctx, [t], [_guid, _count, msg]) => {
    ctx.session.events.push({ type: t!, value: msg })
    return []
  },
  write_module_event_to_store: (ctx, [t], [msg]) => {
    ctx.session.events.push({ type: t!, value: msg })
    return []
  }
}
