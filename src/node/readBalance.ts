import * as Result from "effect/Result"
import { Bcs, BcsReader } from "../bcs/index.js"
import { type AccountAddress, addressCodec } from "../domain/AccountAddress.js"
import { pairedMetadataAddress, primaryStoreAddress } from "../domain/objectAddress.js"
import type { StructTag } from "../domain/TypeTag.js"
import { readStructTag, structTagCodec } from "../domain/TypeTagCodec.js"
import type { StateReader } from "../ledger/Ledger.js"
import { frameworkStruct, resourceGroupKey, resourceKey } from "./stateKeys.js"

/** A stored resource the balance needs could not be decoded: the node's fault, a 500. */
export class BalanceDecodeError {
  readonly _tag = "BalanceDecodeError"
  constructor(readonly message: string) {}
}

const OBJECT_GROUP = frameworkStruct("object", "ObjectGroup")
const FUNGIBLE_STORE = frameworkStruct("fungible_asset", "FungibleStore")
const CONCURRENT_BALANCE = frameworkStruct("fungible_asset", "ConcurrentFungibleBalance")

/** The encoded tags of the two `ObjectGroup` members a balance reads, compared as bytes. */
const FUNGIBLE_STORE_TAG = Bcs.encode(structTagCodec, FUNGIBLE_STORE)
const CONCURRENT_BALANCE_TAG = Bcs.encode(structTagCodec, CONCURRENT_BALANCE)

/** `FungibleStore { metadata: Object<Metadata>, balance: u64, frozen: bool }`. */
const fungibleStoreCodec = Bcs.struct({ metadata: addressCodec, balance: Bcs.u64, frozen: Bcs.bool })

/** Whether `tag` is at `offset` of `bytes`. */
const tagAt = (bytes: Uint8Array, offset: number, tag: Uint8Array): boolean => {
  if (bytes.length - offset < tag.length) return false
  for (let i = 0; i < tag.length; i++) if (bytes[offset + i] !== tag[i]) return false
  return true
}

interface StoreMembers {
  readonly store: Uint8Array | undefined
  readonly concurrent: Uint8Array | undefined
}

/**
 * The first `FungibleStore` and `ConcurrentFungibleBalance` members of a resource group
 * (`BTreeMap<StructTag, vector<u8>>`), or `undefined` when the group does not decode. BCS is
 * canonical, so a member's tag equals one of ours exactly when its encoding equals ours: those two
 * are found by comparing bytes; every other tag is still decoded, so a malformed group is rejected
 * as a full decode would.
 */
const storeMembers = (groupBytes: Uint8Array): StoreMembers | undefined => {
  try {
    const r = new BcsReader(groupBytes)
    const n = r.length(1)
    let store: Uint8Array | undefined
    let concurrent: Uint8Array | undefined
    for (let i = 0; i < n; i++) {
      if (tagAt(groupBytes, r.offset, FUNGIBLE_STORE_TAG)) {
        r.offset += FUNGIBLE_STORE_TAG.length
        const value = r.bytesWithLength()
        store ??= value
      } else if (tagAt(groupBytes, r.offset, CONCURRENT_BALANCE_TAG)) {
        r.offset += CONCURRENT_BALANCE_TAG.length
        const value = r.bytesWithLength()
        concurrent ??= value
      } else {
        readStructTag(r)
        r.bytesWithLength()
      }
    }
    r.expectEnd()
    return { store, concurrent }
  } catch {
    return undefined
  }
}

/** The first u64 of a resource: `Coin<T>.value` of a CoinStore, `Aggregator.value` of a concurrent balance. */
const firstU64 = (bytes: Uint8Array, what: string): bigint | BalanceDecodeError => {
  if (bytes.length < 8) return new BalanceDecodeError(`Failed to decode ${what}: ${bytes.length} bytes`)
  return new BcsReader(bytes).u64()
}

/**
 * The state keys a balance reads: the `CoinStore<T>` resource (coin types only) and the `ObjectGroup`
 * of the owner's primary store of the fungible asset. Pure and a little costly (two sha3 hashes, BCS
 * of the keys), so the node computes them once per (owner, asset) and reuses them.
 */
export interface BalanceKeys {
  readonly coinStore: Uint8Array | undefined
  readonly primaryStoreGroup: Uint8Array
}

export const coinBalanceKeys = (owner: AccountAddress, coin: StructTag): BalanceKeys => ({
  coinStore: resourceKey(owner, frameworkStruct("coin", "CoinStore", [{ _tag: "struct", struct: coin }])),
  primaryStoreGroup: primaryStoreGroupKey(owner, pairedMetadataAddress({ _tag: "struct", struct: coin }))
})

export const fungibleAssetBalanceKeys = (owner: AccountAddress, metadata: AccountAddress): BalanceKeys => ({
  coinStore: undefined,
  primaryStoreGroup: primaryStoreGroupKey(owner, metadata)
})

const primaryStoreGroupKey = (owner: AccountAddress, metadata: AccountAddress): Uint8Array =>
  resourceGroupKey(primaryStoreAddress(owner, metadata), OBJECT_GROUP)

/** The `CoinStore<T>` value under `key`, 0 without a store. */
const coinStoreAt = (state: StateReader, key: Uint8Array): bigint | BalanceDecodeError => {
  const bytes = state.get(key)
  return bytes === undefined ? 0n : firstU64(bytes, "CoinStore")
}

/**
 * The balance of a primary store (aptos-api-behaviour.md §5.2 step 4): the `FungibleStore` in the
 * `ObjectGroup` under `groupKey`; when its balance is 0, a `ConcurrentFungibleBalance` beside it holds
 * the balance instead. No group or no store = 0; an undecodable group is ignored, as the reference
 * does; an undecodable store is an error.
 */
const primaryStoreAt = (state: StateReader, groupKey: Uint8Array): bigint | BalanceDecodeError => {
  const groupBytes = state.get(groupKey)
  if (groupBytes === undefined) return 0n
  const members = storeMembers(groupBytes)
  if (members === undefined) return 0n
  const storeBytes = members.store
  if (storeBytes === undefined) return 0n
  const store = Bcs.decode(fungibleStoreCodec, storeBytes)
  if (Result.isFailure(store)) return new BalanceDecodeError(`Failed to decode FungibleStore: ${store.failure.message}`)
  if (store.success.balance !== 0n) return store.success.balance
  const concurrent = members.concurrent
  return concurrent === undefined ? 0n : firstU64(concurrent, "ConcurrentFungibleBalance")
}

/** A balance at `state`: the `CoinStore<T>` (coin types) plus the primary store of the fungible asset. */
export const balanceAt = (state: StateReader, keys: BalanceKeys): bigint | BalanceDecodeError => {
  const fromCoin = keys.coinStore === undefined ? 0n : coinStoreAt(state, keys.coinStore)
  if (typeof fromCoin !== "bigint") return fromCoin
  const fromStore = primaryStoreAt(state, keys.primaryStoreGroup)
  return typeof fromStore !== "bigint" ? fromStore : fromCoin + fromStore
}

/** The `CoinStore<T>` value at `owner`, 0 without a store. */
export const coinStoreBalance = (
  state: StateReader,
  owner: AccountAddress,
  coin: StructTag
): bigint | BalanceDecodeError => coinStoreAt(state, coinBalanceKeys(owner, coin).coinStore!)

/** The balance of `owner`'s primary store of the fungible asset `metadata`. */
export const primaryStoreBalance = (
  state: StateReader,
  owner: AccountAddress,
  metadata: AccountAddress
): bigint | BalanceDecodeError => primaryStoreAt(state, primaryStoreGroupKey(owner, metadata))

/** A coin type's balance: its `CoinStore<T>` plus the primary store of its paired fungible asset. */
export const coinBalance = (state: StateReader, owner: AccountAddress, coin: StructTag): bigint | BalanceDecodeError =>
  balanceAt(state, coinBalanceKeys(owner, coin))
