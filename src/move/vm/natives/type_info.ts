import { typeName } from "../Type.js"
import { StructValue } from "../Value.js"
import { utf8Encoder, makeString } from "./helpers.js"
import { type NativeFunction, nativeAbort } from "./NativeContext.js"

/** `type_of` on a non-struct type aborts with this code (`EXPECTED_STRUCT_TYPE_TAG`). */
export const E_EXPECTED_STRUCT = 0x10001n

/** `0x1::type_info` natives. */
export const typeInfoNatives: Record<string, NativeFunction> = {
  type_of: (ctx, [t]) => {
    if (t === undefined || t.k !== 16) return nativeAbort(ctx, E_EXPECTED_STRUCT)
    const name = t.args.length === 0 ? t.def.name : typeName(t).split("::").slice(2).join("::")
    return [
      new StructValue(-1, [
        t.def.address,
        Array.from(utf8Encoder.encode(t.def.module)),
        Array.from(utf8Encoder.encode(name))
      ])
    ]
  },
  type_name: (_c, [t]) => [makeString(typeName(t!))],
  chain_id_internal: (ctx) => [ctx.chainId()]
}
