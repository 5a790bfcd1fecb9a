import { type StructKind, typeName } from "../Type.js"
import { StructValue } from "../Value.js"
import { chargeParam, makeString, utf8Encoder } from "./helpers.js"
import { type NativeFunction, nativeAbort } from "./NativeContext.js"

/** `type_of` on a non-struct type aborts with this code (`EXPECTED_STRUCT_TYPE_TAG`). */
export const E_EXPECTED_STRUCT = 0x10001n

/** A struct type's `TypeInfo` parts: module and name as UTF-8 byte vectors. */
interface TypeInfoParts {
  readonly module: ReadonlyArray<number>
  readonly name: ReadonlyArray<number>
}

/** By (interned) type: encoded once; each call hands out fresh copies (vectors are mutable). */
const parts = new WeakMap<StructKind, TypeInfoParts>()

const partsOf = (t: StructKind): TypeInfoParts => {
  let p = parts.get(t)
  if (p === undefined) {
    const name = t.args.length === 0 ? t.def.name : typeName(t).split("::").slice(2).join("::")
    p = { module: Array.from(utf8Encoder.encode(t.def.module)), name: Array.from(utf8Encoder.encode(name)) }
    parts.set(t, p)
  }
  return p
}

/** `0x1::type_info` natives. */
export const typeInfoNatives: Record<string, NativeFunction> = {
  type_of: (ctx, [t]) => {
    if (t === undefined || t.k !== 16) return nativeAbort(ctx, E_EXPECTED_STRUCT)
    const p = partsOf(t)
    chargeParam(ctx, "aptos_framework.type_info.type_of.per_abstract_memory_unit", 32 + p.module.length + p.name.length)
    return [new StructValue(-1, [t.def.address, p.module.slice(), p.name.slice()])]
  },
  type_name: (ctx, [t]) => {
    const s = makeString(typeName(t!))
    chargeParam(
      ctx,
      "aptos_framework.type_info.type_name.per_abstract_memory_unit",
      (s.fields[0] as ReadonlyArray<number>).length
    )
    return [s]
  },
  chain_id_internal: (ctx) => [ctx.chainId()]
}
