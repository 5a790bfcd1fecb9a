/**
 * How coins (v1) and fungible assets (v2) meet in the indexer (indexer.md §2.1): a coin type's
 * paired fungible-asset metadata address, an owner's primary store for a metadata address, and the
 * coin type behind a metadata address (asset_type_v1 of a store).
 */
import * as Result from "effect/Result"
import {
  addressFromNumber,
  addressToLongString,
  addressToShortString,
  parseAddress
} from "../../../domain/AccountAddress.js"
import { namedObjectAddress, primaryStoreAddress } from "../../../domain/objectAddress.js"
import type { StructTag } from "../../../domain/TypeTag.js"
import { typeTagToString } from "../../../domain/TypeTagString.js"
import { frameworkStruct } from "../../../node/stateKeys.js"
import type { IndexerTransaction, JsonValue } from "../input/IndexerTransaction.js"
import { addressField, field, stringField, utf8OfHex } from "../moveValues.js"

export const APTOS_COIN = "0x1::aptos_coin::AptosCoin"
/** APT's fungible-asset metadata object, `0x…0a`. */
export const APT_METADATA = addressToLongString(addressFromNumber(0xa))
/** The reference's `BURN_ADDR`: the owner shown when a store or metadata has no `ObjectCore`. */
export const BURN_ADDRESS = addressToLongString(addressFromNumber(0))
/** The reference's `COIN_TYPE_MAX`: longer coin types are not indexed. */
const COIN_TYPE_MAX = 1000

const A_ADDRESS = addressFromNumber(0xa)
const encoder = new TextEncoder()

/**
 * The paired metadata address of a coin type, from its type name as the reference hashes it:
 * `0x…0a` for AptosCoin, else the object named by the type name under `0xa`.
 */
export const pairedMetadataOf = (coinType: string): string =>
  coinType === APTOS_COIN ? APT_METADATA : addressToLongString(namedObjectAddress(A_ADDRESS, encoder.encode(coinType)))

/** Primary store addresses computed, by owner and metadata (bounded: cleared when full). */
const primaryStores = new Map<string, string>()
const PRIMARY_STORES_MAX = 65_536

/**
 * The primary store of `owner` for `metadata` (both long form); undefined for text that is not an
 * address. Remembered: every transfer asks for the same few (sender's and recipient's APT stores).
 */
export const primaryStoreOf = (owner: string, metadata: string): string | undefined => {
  const key = owner + metadata
  const known = primaryStores.get(key)
  if (known !== undefined) return known
  const o = parseAddress(owner)
  const m = parseAddress(metadata)
  if (Result.isFailure(o) || Result.isFailure(m)) return undefined
  const store = addressToLongString(primaryStoreAddress(o.success, m.success))
  if (primaryStores.size >= PRIMARY_STORES_MAX) primaryStores.clear()
  primaryStores.set(key, store)
  return store
}

/** `T` of `0x1::coin::CoinStore<T>` / `CoinInfo<T>` as the API writes it; undefined when absent or too long. */
export const coinTypeOf = (struct: StructTag): string | undefined => {
  const t = struct.typeArgs[0]
  if (t === undefined) return undefined
  const s = typeTagToString(t)
  return s.length > COIN_TYPE_MAX ? undefined : s
}

/** The address of `T` in `CoinInfo<T>` (the coin's creator), long form. */
export const coinCreatorOf = (struct: StructTag): string | undefined => {
  const t = struct.typeArgs[0]
  return t?._tag === "struct" ? addressToLongString(t.struct.address) : undefined
}

const PAIRED_COIN_TYPE = frameworkStruct("coin", "PairedCoinType")
const OBJECT_GROUP = frameworkStruct("object", "ObjectGroup")

/**
 * A coin type from `0x1::coin::PairedCoinType { type: TypeInfo }`, accepted only when it hashes to
 * `metadata` (so it is the very name the reference would have mapped from `CoinInfo<T>`).
 */
const coinTypeOfPairing = (data: JsonValue | undefined, metadata: string): string | undefined => {
  const info = field(data, "type")
  const address = addressField(info, "account_address")
  const module = utf8OfHex(stringField(info, "module_name"))
  const name = utf8OfHex(stringField(info, "struct_name"))
  if (address === undefined || module === undefined || name === undefined) return undefined
  const parsed = parseAddress(address)
  if (Result.isFailure(parsed)) return undefined
  const candidate = `${addressToShortString(parsed.success)}::${module}::${name}`
  return pairedMetadataOf(candidate) === metadata ? candidate : undefined
}

/**
 * The coin types paired with fungible-asset metadata addresses, as the reference's
 * `fungible_asset_to_coin_mappings` gives them: APT's static pair, the pairs of every `CoinInfo<T>`
 * written in the batch, then (what the reference reads from its table) the metadata object's own
 * `PairedCoinType`, written in the transaction or present before it.
 */
export class CoinPairings {
  private readonly known = new Map<string, string>([[APT_METADATA, APTOS_COIN]])

  /** A `CoinInfo<T>` was written: T's paired metadata maps to T. */
  learn(coinType: string): void {
    this.known.set(pairedMetadataOf(coinType), coinType)
  }

  coinTypeOf(metadata: string, t: IndexerTransaction, pairingInTransaction: JsonValue | undefined): string | undefined {
    const known = this.known.get(metadata)
    if (known !== undefined) return known
    const found =
      coinTypeOfPairing(pairingInTransaction, metadata) ??
      coinTypeOfPairing(t.before.resource(metadata, PAIRED_COIN_TYPE, OBJECT_GROUP), metadata)
    if (found !== undefined) this.known.set(metadata, found)
    return found
  }
}
