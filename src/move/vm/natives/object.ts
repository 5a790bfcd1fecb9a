import { sha3 as sha3_256 } from "../../../domain/hash.js"
import { knownAddressKey } from "../../../domain/mapKeys.js"
import type { StructKind } from "../Type.js"
import { chargeParam } from "./helpers.js"
import type { NativeFunction } from "./NativeContext.js"

/** Domain separator of user-derived object addresses (`DERIVE_AUID_ADDRESS_SCHEME` 0xFC). */
const OBJECT_DERIVED_SCHEME = 0xfc

/**
 * Derived addresses by derive_from, then source: a pure function that every fungible-asset balance
 * view and transfer evaluates (primary stores), so hot accounts hash once. Addresses are never
 * mutated in place, so the cached array is handed out as is. Keyed by each address's own key (an
 * address array seen before has its string, hashed already) rather than the two joined (a new
 * string to build and hash at every call). Emptied whole when full.
 */
const derived = new Map<string, Map<string, Uint8Array>>()
let derivedCount = 0
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
    const dKey = knownAddressKey(d)
    let bySource = derived.get(dKey)
    const sKey = knownAddressKey(s)
    let address = bySource?.get(sKey)
    if (address === undefined) {
      address = deriveAddress(s, d)
      if (derivedCount >= DERIVED_MAX) {
        derived.clear()
        derivedCount = 0
        bySource = undefined
      }
      if (bySource === undefined) derived.set(dKey, (bySource = new Map()))
      bySource.set(sKey, address)
      derivedCount++
    }
    return [address]
  }
}
