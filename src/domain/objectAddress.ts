/**
 * Derived object addresses (pure hashing):
 * - a primary fungible store: sha3_256(owner ‖ metadata ‖ 0xFC) (object from object);
 * - a coin's paired fungible-asset metadata: 0xa for exactly `0x1::aptos_coin::AptosCoin`, else the
 *   named object sha3_256(0xa ‖ utf8(canonical type name) ‖ 0xFE) created by 0xa.
 */
import { sha3_256 } from "@noble/hashes/sha3.js"
import { type AccountAddress, addressFromNumber } from "./AccountAddress.js"
import type { TypeTag } from "./TypeTag.js"
import { typeTagToString } from "./TypeTagString.js"

const OBJECT_FROM_OBJECT = 0xfc
const OBJECT_FROM_SEED = 0xfe
const FA_ADDRESS = addressFromNumber(0xa)
const textEncoder = new TextEncoder()

export const primaryStoreAddress = (owner: AccountAddress, metadata: AccountAddress): AccountAddress =>
  sha3_256.create().update(owner).update(metadata).update(Uint8Array.of(OBJECT_FROM_OBJECT)).digest()

/** `object::create_object_address(creator, seed)`. */
export const namedObjectAddress = (creator: AccountAddress, seed: Uint8Array): AccountAddress =>
  sha3_256.create().update(creator).update(seed).update(Uint8Array.of(OBJECT_FROM_SEED)).digest()

export const pairedMetadataAddress = (coinType: TypeTag): AccountAddress => {
  const name = typeTagToString(coinType)
  if (name === "0x1::aptos_coin::AptosCoin") return addressFromNumber(0xa)
  return namedObjectAddress(FA_ADDRESS, textEncoder.encode(name))
}
