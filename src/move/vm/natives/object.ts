import { sha3 as sha3_256 } from "../../../domain/hash.js"
import { bytesKey } from "../../../domain/mapKeys.js"
import type { StructKind } from "../Type.js"
import { chargeParam } from "./helpers.js"
import type { NativeFunction } from "./NativeContext.js"

/** Domain separator of user-derived object addresses (`DERIVE_AUID_ADDRESS_SCHEME` 0xFC). */
const OBJECT_DERIVED_SCHEME = 0xfc

/**
 * Derived addresses by (source, derive_from): a pure function that every fungible-asset balance
 * view evaluates (primary stores), so hot accounts hash once. Addresses are never mutated in place,
 * so the cached array is handed out as is. Emptied whole when full.
 */
const derived = new Map<string, Uint8Array>()
const DERIVED_MAX = 4096

const deriveAddress = (source: Uint8Array, derive: Uint8Array): Uint8Array => {
  const buf = new Uint8Array(65)
  buf.set(source, 0)
  buf.set(derive, 32)
  buf[64] = OBJECT_DERIVED_SCHEME
  return sha3_256(buf)
}

/** `0x1::object` natives. `exists_at` reads through the session, so resource groups are honoured. */
export const objectNatives: Record<string, NativeFunction> = {
  /** Base, plus `per_item_loaded` + `per_byte_loaded` × bytes when the resource is read from storage (no IO gas). */
  exists_at: (ctx, [t], [a]) => {
    const slot = ctx.session.resource(a as Uint8Array, t as StructKind, true)
    const loaded = ctx.session.loadedBytes
    if (loaded >= 0) {
      chargeParam(ctx, "aptos_framework.object.exists_at.per_item_loaded")
      chargeParam(ctx, "aptos_framework.object.exists_at.per_byte_loaded", loaded)
    }
    return [slot.box[0] !== undefined]
  },
  create_user_derived_object_address_impl: (_c, _t, [source, derive]) => {
    const s = source as Uint8Array
    const d = derive as Uint8Array
    // Both are addresses (32 bytes), so the two keys concatenate unambiguously.
    const key = bytesKey(s) + bytesKey(d)
    let address = derived.get(key)
    if (address === undefined) {
      address = deriveAddress(s, d)
      if (derived.size >= DERIVED_MAX) derived.clear()
      derived.set(key, address)
    }
    return [address]
  }
}
