import { sha3 as sha3_256 } from "../../../domain/hash.js"
import type { StructKind } from "../Type.js"
import type { NativeFunction } from "./NativeContext.js"

/** Domain separator of user-derived object addresses (`DERIVE_AUID_ADDRESS_SCHEME` 0xFC). */
const OBJECT_DERIVED_SCHEME = 0xfc

/** `0x1::object` natives. `exists_at` reads through the session, so resource groups are honoured. */
export const objectNatives: Record<string, NativeFunction> = {
  exists_at: (ctx, [t], [a]) => [ctx.session.resource(a as Uint8Array, t as StructKind).box[0] !== undefined],
  create_user_derived_object_address_impl: (_c, _t, [source, derive]) => {
    const buf = new Uint8Array(65)
    buf.set(source as Uint8Array, 0)
    buf.set(derive as Uint8Array, 32)
    buf[64] = OBJECT_DERIVED_SCHEME
    return [sha3_256(buf)]
  }
}
