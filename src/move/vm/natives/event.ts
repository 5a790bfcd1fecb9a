import { abstractSize } from "../MemorySize.js"
import type { Value } from "../Value.js"
import { chargeParam } from "./helpers.js"
import type { NativeContext, NativeFunction } from "./NativeContext.js"

/** Base (charged by the interpreter) + per abstract value unit of the message, both kinds of events. */
const chargeEvent = (ctx: NativeContext, msg: Value): void =>
  chargeParam(
    ctx,
    "aptos_framework.event.write_to_event_store.per_abstract_memory_unit",
    abstractSize(msg, ctx.gas.params.sized.absValNode || 40)
  )

/**
 * `0x1::event`: events are recorded in the session in emission order (a view discards them).
 * A handle event keeps its GUID bytes (BCS `{creation_num, addr}`: the event key) and the handle's
 * counter (its sequence number).
 */
export const eventNatives: Record<string, NativeFunction> = {
  write_to_event_store: (ctx, [t], [guid, count, msg]) => {
    chargeEvent(ctx, msg)
    ctx.session.events.push({ type: t!, value: msg, guid: Uint8Array.from(guid as number[]), count: count as bigint })
    return []
  },
  write_module_event_to_store: (ctx, [t], [msg]) => {
    chargeEvent(ctx, msg)
    ctx.session.events.push({ type: t!, value: msg })
    return []
  }
}
