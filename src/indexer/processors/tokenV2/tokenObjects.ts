/**
 * What one transaction writes at each object address that the token processor reads (the
 * reference's `ObjectAggregatedData`): the object's core, and the token, collection, supply,
 * property-map and fungible-asset resources of the same object, all members of its resource group
 * and so written together.
 */
import type { IndexerTransaction, JsonValue } from "../input/IndexerTransaction.js"

export interface TokenObject {
  objectCore?: JsonValue
  untransferable?: boolean
  token?: JsonValue
  tokenIdentifiers?: JsonValue
  propertyMap?: JsonValue
  collection?: JsonValue
  fixedSupply?: JsonValue
  unlimitedSupply?: JsonValue
  concurrentSupply?: JsonValue
  aptosCollection?: JsonValue
  fungibleAssetMetadata?: boolean
}

/** The resource types read, by their API type string. */
const SLOTS: { readonly [type: string]: keyof TokenObject } = {
  "0x1::object::ObjectCore": "objectCore",
  "0x1::object::Untransferable": "untransferable",
  "0x4::token::Token": "token",
  "0x4::token::TokenIdentifiers": "tokenIdentifiers",
  "0x4::property_map::PropertyMap": "propertyMap",
  "0x4::collection::Collection": "collection",
  "0x4::collection::FixedSupply": "fixedSupply",
  "0x4::collection::UnlimitedSupply": "unlimitedSupply",
  "0x4::collection::ConcurrentSupply": "concurrentSupply",
  "0x4::aptos_token::AptosCollection": "aptosCollection",
  "0x1::fungible_asset::Metadata": "fungibleAssetMetadata"
}

/**
 * Every address with a written resource, mapped to the token-related resources written there
 * (an address with none of them still has an entry: the reference records every written address,
 * and transfer events are only matched to addresses in the map).
 */
export const tokenObjectsOf = (t: IndexerTransaction): Map<string, TokenObject> => {
  const out = new Map<string, TokenObject>()
  for (const c of t.changes) {
    if (c.type !== "write_resource") continue
    let entry = out.get(c.address)
    if (entry === undefined) {
      entry = {}
      out.set(c.address, entry)
    }
    const slot = SLOTS[c.typeStr]
    if (slot === undefined) continue
    if (slot === "untransferable" || slot === "fungibleAssetMetadata") entry[slot] = true
    else {
      const data = c.data()
      if (data !== undefined) entry[slot] = data
    }
  }
  return out
}
