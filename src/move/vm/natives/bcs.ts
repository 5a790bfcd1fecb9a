import { K, substitute, type Type } from "../Type.js"
import { fromBytes } from "../Value.js"
import { serializeValue, deserializeValue } from "../ValueBcs.js"
import { VmError } from "../VmError.js"
import { chargeParam, deref, makeOption } from "./helpers.js"
import { type NativeFunction, nativeAbort } from "./NativeContext.js"

/** Abort code of a failed BCS (de)serialisation in a native (`NFE_BCS_SERIALIZATION_FAILURE`). */
export const NFE_BCS_SERIALIZATION_FAILURE = 0x1c5n

const FIXED: Record<number, number> = {
  0: 1,
  1: 1,
  2: 2,
  3: 4,
  4: 8,
  5: 16,
  6: 32,
  7: 1,
  8: 2,
  9: 4,
  10: 8,
  11: 16,
  12: 32,
  13: 32,
  14: 32
}

/** Serialised size when every value of `t` has the same size; undefined otherwise. */
const constantSize = (t: Type, depth: number): number | undefined => {
  if (depth > 64) return undefined
  const f = FIXED[t.k]
  if (f !== undefined) return f
  if (t.k !== K.Struct || t.def.variants !== undefined || t.def.fields === undefined) return undefined
  let total = 0
  for (const field of t.def.fields) {
    const s = constantSize(field.type.g ? substitute(field.type, t.args) : field.type, depth + 1)
    if (s === undefined) return undefined
    total += s
  }
  return total
}

export const bcsNatives: Record<string, NativeFunction> = {
  to_bytes: (ctx, [t], [v]) => {
    let bytes: Uint8Array
    try {
      bytes = serializeValue(deref(v), t!)
    } catch (e) {
      if (e instanceof VmError && e.status === "VALUE_SERIALIZATION_ERROR") {
        chargeParam(ctx, "move_stdlib.bcs.to_bytes.failure")
        return nativeAbort(ctx, NFE_BCS_SERIALIZATION_FAILURE)
      }
      throw e
    }
    chargeParam(ctx, "move_stdlib.bcs.to_bytes.per_byte_serialized", bytes.length)
    return [fromBytes(bytes)]
  },
  serialized_size: (ctx, [t], [v]) => {
    let bytes: Uint8Array
    try {
      bytes = serializeValue(deref(v), t!)
    } catch (e) {
      if (e instanceof VmError && e.status === "VALUE_SERIALIZATION_ERROR") {
        chargeParam(ctx, "move_stdlib.bcs.serialized_size.failure")
        return nativeAbort(ctx, NFE_BCS_SERIALIZATION_FAILURE)
      }
      throw e
    }
    chargeParam(ctx, "move_stdlib.bcs.serialized_size.per_byte_serialized", bytes.length)
    return [BigInt(bytes.length)]
  },
  constant_serialized_size: (ctx, [t]) => {
    const s = constantSize(t!, 0)
    return [makeOption(ctx, s === undefined ? undefined : BigInt(s))]
  }
}

/** `from_bcs::from_bytes` and `util::from_bytes`: decode or abort with NFE_BCS_SERIALIZATION_FAILURE. */
export const fromBytesNative: NativeFunction = (ctx, [t], [v]) => {
  const bytes = Uint8Array.from(v as number[])
  chargeParam(ctx, "aptos_framework.util.from_bytes.per_byte", bytes.length)
  try {
    return [deserializeValue(bytes, t!)]
  } catch (e) {
    if (e instanceof VmError) return nativeAbort(ctx, NFE_BCS_SERIALIZATION_FAILURE)
    throw e
  }
}
