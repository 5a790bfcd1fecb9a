import { addressEquals } from "../../../domain/AccountAddress.js"
import { abstractSize } from "../MemorySize.js"
import { SCRIPT_MODULE_NAME } from "../scriptModule.js"
import type { Type } from "../Type.js"
import type { Value } from "../Value.js"
import { vmError } from "../VmError.js"
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
 * The reference's run-time check of a module event: emitted from the module that defines its type
 * (`event::emit`'s caller), never from a script (publish and script loading refuse both earlier:
 * `eventValidation.ts`; this catches code that bypassed them, such as a module published before).
 */
const checkEmitter = (ctx: NativeContext, t: Type): void => {
  const caller = ctx.caller
  if (caller === undefined || caller.name === SCRIPT_MODULE_NAME)
    vmError("UNKNOWN_INVARIANT_VIOLATION_ERROR", "Scripts cannot emit events")
  else if (t.k !== 16 || !addressEquals(t.def.address, caller.address) || t.def.module !== caller.name)
    vmError("INTERNAL_TYPE_ERROR", "a module event's type must be defined by the module emitting it")
}

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
    checkEmitter(ctx, t!)
    ctx.session.events.push({ type: t!, value: msg })
    return []
  }
}
