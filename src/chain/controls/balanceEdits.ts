/**
 * Setting a balance (anvil's `anvil_setBalance`, forge's `deal`) as state edits: a fungible
 * asset's balance lives in the owner's primary store (`FungibleStore.balance` in the
 * `ObjectGroup` at the store's derived address, or a `ConcurrentFungibleBalance` beside it), and
 * APT may also sit in a legacy `CoinStore<AptosCoin>`. The edit sets the primary store so the total
 * is the amount asked (a coin store larger than the amount is lowered instead, the primary store
 * emptied), and moves the asset's supply (`ConcurrentSupply` or `Supply` in its metadata object's
 * group) by what the primary store changed: the supply stays consistent with the stores. A
 * change of a `CoinStore` is not reflected in the coin's supply (`CoinInfo`): the answer says so.
 *
 * An owner without a primary store of the asset gets one only when asked (`createStore`): the
 * object `primary_fungible_store::create_primary_store` makes (`primaryStoreGroup`: its
 * `ObjectCore` with ungated transfer off, an empty `FungibleStore`, `object::Untransferable` when
 * the asset is untransferable), then set as above. Without it, `ChainControls` funds APT through
 * the faucet in that case; the faucet of a fork whose root key is not ours (`provisionedFunder.ts`)
 * creates its funder's store this way.
 */
import { BcsReader, BcsWriter } from "../../bcs/index.js"
import type { AccountAddress } from "../../domain/AccountAddress.js"
import { primaryStoreAddress } from "../../domain/objectAddress.js"
import { Bcs } from "../../bcs/index.js"
import { resourceGroupCodec } from "../../domain/ResourceGroupCodec.js"
import type { StructTag, TypeTag } from "../../domain/TypeTag.js"
import { structTagCodec } from "../../domain/TypeTagCodec.js"
import type { StateReader } from "../../ledger/Ledger.js"
import * as Result from "effect/Result"
import { type KeyEdit, keyBytesOf, withMember } from "./stateEdits.js"

const ONE = new Uint8Array(32)
ONE[31] = 1
const fw = (module: string, name: string, typeArgs: ReadonlyArray<TypeTag> = []): StructTag => ({
  address: ONE,
  module,
  name,
  typeArgs
})

const OBJECT_GROUP = fw("object", "ObjectGroup")
const OBJECT_CORE = fw("object", "ObjectCore")
const OBJECT_UNTRANSFERABLE = fw("object", "Untransferable")
const FA_UNTRANSFERABLE = fw("fungible_asset", "Untransferable")
const FUNGIBLE_STORE = fw("fungible_asset", "FungibleStore")
const CONCURRENT_BALANCE = fw("fungible_asset", "ConcurrentFungibleBalance")
const CONCURRENT_SUPPLY = fw("fungible_asset", "ConcurrentSupply")
const SUPPLY = fw("fungible_asset", "Supply")
export const APT_COIN: StructTag = fw("aptos_coin", "AptosCoin")

const U64_MAX = (1n << 64n) - 1n

export interface BalancePlan {
  readonly edits: ReadonlyArray<KeyEdit>
  readonly before: bigint
  /** What the edits leave the supply as, in words (for the answer). */
  readonly supply: string
}

const groupKey = (address: AccountAddress) =>
  ({ _tag: "AccessPath", address, path: { _tag: "ResourceGroup", struct: OBJECT_GROUP } }) as const

const memberOf = (groupBytes: Uint8Array | undefined, struct: StructTag): Uint8Array | undefined => {
  if (groupBytes === undefined) return undefined
  const decoded = Bcs.decode(resourceGroupCodec, groupBytes)
  if (Result.isFailure(decoded)) return undefined
  const tag = Bcs.encode(structTagCodec, struct)
  return decoded.success.find((m) => Buffer.compare(Bcs.encode(structTagCodec, m.struct), tag) === 0)?.bytes
}

const setU64 = (bytes: Uint8Array, offset: number, v: bigint) => {
  const out = new Uint8Array(bytes)
  new DataView(out.buffer, out.byteOffset + offset, 8).setBigUint64(0, v, true)
  return out
}
const u64At = (bytes: Uint8Array, offset: number) => new BcsReader(bytes.subarray(offset)).u64()
const u128At = (bytes: Uint8Array) => new BcsReader(bytes).u128()
const setU128 = (bytes: Uint8Array, v: bigint) => {
  const out = new Uint8Array(bytes)
  const view = new DataView(out.buffer, out.byteOffset, 16)
  view.setBigUint64(0, v & U64_MAX, true)
  view.setBigUint64(8, v >> 64n, true)
  return out
}

/** `object::INIT_GUID_CREATION_NUM`: an object's first GUID (its transfer events) has this number. */
const OBJECT_INIT_GUID = 0x4000000000000n

/**
 * The resource group of `owner`'s primary store of `metadata` as the framework creates it
 * (`create_user_derived_object` + `disable_ungated_transfer` + `fungible_asset::create_store`):
 * `ObjectCore { guid_creation_num: INIT+1, owner, allow_ungated_transfer: false, transfer_events:
 * { counter: 0, guid: { creation_num: INIT, addr: store } } }` and `FungibleStore { metadata,
 * balance: 0, frozen: false }`, plus `object::Untransferable` where the asset is untransferable.
 */
export const primaryStoreGroup = (
  owner: AccountAddress,
  metadata: AccountAddress,
  untransferable: boolean
): Uint8Array => {
  const core = new BcsWriter(89)
    .u64(OBJECT_INIT_GUID + 1n)
    .fixed(owner)
    .bool(false) // allow_ungated_transfer
    .u64(0n) // transfer_events.counter
    .u64(OBJECT_INIT_GUID)
    .fixed(primaryStoreAddress(owner, metadata))
    .toBytes()
  const fungibleStore = new BcsWriter(41).fixed(metadata).u64(0n).bool(false).toBytes()
  let group = withMember(undefined, OBJECT_CORE, core) as Uint8Array
  group = withMember(group, FUNGIBLE_STORE, fungibleStore) as Uint8Array
  if (untransferable) group = withMember(group, OBJECT_UNTRANSFERABLE, Uint8Array.of(0)) as Uint8Array
  return group
}

/**
 * The edits that make `owner`'s balance of the asset `metadata` (with `coin` its paired coin type,
 * for APT) equal `amount`; "no-store" when the owner has no primary store and no coin store to
 * set; a message when the stored values cannot be read.
 */
export const planBalance = (
  state: StateReader,
  owner: AccountAddress,
  metadata: AccountAddress,
  coin: StructTag | undefined,
  amount: bigint,
  options: { readonly createStore?: boolean } = {}
): BalancePlan | "no-store" | string => {
  const coinKey =
    coin === undefined
      ? undefined
      : ({
          _tag: "AccessPath",
          address: owner,
          path: { _tag: "Resource", struct: fw("coin", "CoinStore", [{ _tag: "struct", struct: coin }]) }
        } as const)
  const coinBytes = coinKey === undefined ? undefined : state.get(keyBytesOf(coinKey))
  const storeGroupKey = groupKey(primaryStoreAddress(owner, metadata))
  let storeGroup = state.get(keyBytesOf(storeGroupKey))
  let store = memberOf(storeGroup, FUNGIBLE_STORE)
  if (store === undefined && storeGroup === undefined && options.createStore === true && amount > 0n) {
    // A new primary store, where the asset exists (its metadata object does).
    const metaGroup = state.get(keyBytesOf(groupKey(metadata)))
    if (metaGroup !== undefined) {
      storeGroup = primaryStoreGroup(owner, metadata, memberOf(metaGroup, FA_UNTRANSFERABLE) !== undefined)
      store = memberOf(storeGroup, FUNGIBLE_STORE)
    }
  }
  if (store === undefined && coinBytes === undefined) return "no-store"
  if (store !== undefined && store.length < 41) return "the FungibleStore does not decode"
  if (coinBytes !== undefined && coinBytes.length < 8) return "the CoinStore does not decode"
  const concurrent = memberOf(storeGroup, CONCURRENT_BALANCE)
  const inStore = store === undefined ? 0n : u64At(store, 32)
  const useConcurrent = store !== undefined && inStore === 0n && concurrent !== undefined
  const faBefore = useConcurrent ? u64At(concurrent!, 0) : inStore
  const coinBefore = coinBytes === undefined ? 0n : u64At(coinBytes, 0)
  // The primary store takes what the coin store does not hold; a coin store above the amount is lowered.
  let coinAfter = coinBefore
  let faAfter: bigint
  if (amount >= coinBefore) faAfter = amount - coinBefore
  else {
    coinAfter = amount
    faAfter = 0n
  }
  if (store === undefined && faAfter > 0n) return "no-store"
  const edits: KeyEdit[] = []
  if (coinAfter !== coinBefore) edits.push({ key: coinKey!, value: setU64(coinBytes!, 0, coinAfter) })
  let supply = "unchanged"
  if (faAfter !== faBefore) {
    let group = storeGroup
    if (useConcurrent) {
      const next = withMember(group, CONCURRENT_BALANCE, setU64(concurrent!, 0, faAfter))
      if (next === "undecodable" || next === undefined) return "the primary store's group does not decode"
      group = next
    } else {
      const next = withMember(group, FUNGIBLE_STORE, setU64(store!, 32, faAfter))
      if (next === "undecodable" || next === undefined) return "the primary store's group does not decode"
      group = next
    }
    edits.push({ key: storeGroupKey, value: group })
    // The asset's supply moves with the store.
    const metaKey = groupKey(metadata)
    const metaGroup = state.get(keyBytesOf(metaKey))
    const delta = faAfter - faBefore
    const concurrentSupply = memberOf(metaGroup, CONCURRENT_SUPPLY)
    const plainSupply = memberOf(metaGroup, SUPPLY)
    if (concurrentSupply !== undefined && concurrentSupply.length >= 16) {
      const next = withMember(metaGroup, CONCURRENT_SUPPLY, setU128(concurrentSupply, u128At(concurrentSupply) + delta))
      if (next === "undecodable" || next === undefined) return "the asset's metadata group does not decode"
      edits.push({ key: metaKey, value: next })
      supply = "moved with the primary store (ConcurrentSupply)"
    } else if (plainSupply !== undefined && plainSupply.length >= 16) {
      const next = withMember(metaGroup, SUPPLY, setU128(plainSupply, u128At(plainSupply) + delta))
      if (next === "undecodable" || next === undefined) return "the asset's metadata group does not decode"
      edits.push({ key: metaKey, value: next })
      supply = "moved with the primary store (Supply)"
    } else supply = "not tracked by the asset (no supply resource)"
  }
  if (coinAfter !== coinBefore)
    supply += `; the CoinStore went from ${coinBefore} to ${coinAfter} without its coin supply (CoinInfo) being changed`
  return { edits, before: coinBefore + faBefore, supply }
}
