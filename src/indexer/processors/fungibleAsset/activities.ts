/**
 * `fungible_asset_activities` rows (pv2 `v2_fungible_asset_activities.rs`), in the reference's
 * order for a transaction: the gas row of a user transaction, then per event a coin (v1) row or a
 * fungible-asset (v2) row.
 * - Gas: event_index −1, type `0x1::aptos_coin::GasFeeEvent`, amount gas used × gas unit price,
 *   owner the sender (also for sponsored transactions, whose payer is `gas_fee_payer_address`),
 *   storage the sender's primary APT store, success as the transaction's, the storage refund of
 *   its `FeeStatement`.
 * - v1: `0x1::coin::WithdrawEvent`/`DepositEvent` (handle events: owner the event key's address,
 *   coin type from the `CoinStore<T>` written in the transaction whose event handle it is, or the
 *   CoinStore deleted for that owner) and `CoinWithdraw`/`CoinDeposit` (module events naming account
 *   and coin type); storage the owner's primary store of the coin's paired asset.
 * - v2: `0x1::fungible_asset::Withdraw`/`Deposit`/`Frozen` (module events naming the store) and the
 *   older handle events `WithdrawEvent`/`DepositEvent`/`FrozenEvent` (the store is the key's
 *   address); owner and metadata from the store's object written in the transaction, else from a
 *   `FungibleStoreDeletion` event, else null.
 * Event rows always say `is_transaction_success` true (events of a failed transaction are not kept).
 */
import type { IndexerEvent, IndexerTransaction, JsonValue } from "../input/IndexerTransaction.js"
import { addressField, boolField, objectAddressField, stringField, uintField } from "../moveValues.js"
import type { AddressResources } from "../objectResources.js"
import type { Row } from "../Processor.js"
import { timestampSecondsOfMicros } from "../rows.js"
import { APT_METADATA, APTOS_COIN, pairedMetadataOf, primaryStoreOf } from "./coinPairing.js"

export const GAS_FEE_EVENT = "0x1::aptos_coin::GasFeeEvent"

/** What the activities of one transaction look up: its written objects, coin event handles, deleted stores. */
export interface ActivityContext {
  readonly objects: ReadonlyMap<string, AddressResources>
  /** `address:creation number` of a written CoinStore's event handles → its coin type. */
  readonly coinTypeByHandle: ReadonlyMap<string, string>
  /** Owner → coin type of a CoinStore deleted in the transaction. */
  readonly deletedCoinStoreType: ReadonlyMap<string, string>
  /** Store address → (owner, metadata) of a `FungibleStoreDeletion` event. */
  readonly deletedStores: ReadonlyMap<string, { readonly owner: string; readonly metadata: string }>
}

/**
 * The columns every activity row of a transaction shares (computed once per transaction). Each row
 * names them one by one in a single literal: spreading this object into a larger literal built
 * each row ~40 times slower with ~5 times the memory (measured, session 11).
 */
type Common = ReturnType<typeof commonOf>
const commonOf = (t: IndexerTransaction) => ({
  transaction_version: t.version,
  entry_function_id_str: t.user?.entryFunction?.idStr ?? null,
  block_height: t.blockHeight,
  transaction_timestamp: timestampSecondsOfMicros(t.timestampMicros)
})

export const gasFeeRow = (t: IndexerTransaction, common: Common = commonOf(t)): Row | undefined => {
  const u = t.user
  if (u === undefined) return undefined
  const refund = t.events
    .filter((e) => e.type === "0x1::transaction_fee::FeeStatement")
    .map((e) => uintField(e.data(), "storage_fee_refund_octas"))[0]
  return {
    transaction_version: common.transaction_version,
    entry_function_id_str: common.entry_function_id_str,
    block_height: common.block_height,
    transaction_timestamp: common.transaction_timestamp,
    event_index: -1n,
    owner_address: u.sender,
    storage_id: primaryStoreOf(u.sender, APT_METADATA) ?? u.sender,
    asset_type: APTOS_COIN,
    is_frozen: null,
    amount: t.gasUsed * u.gasUnitPrice,
    type: GAS_FEE_EVENT,
    is_gas_fee: true,
    gas_fee_payer_address: u.feePayer ?? null,
    is_transaction_success: t.success,
    token_standard: "v1",
    storage_refund_amount: refund ?? 0n
  }
}

const coinEventRow = (common: Common, e: IndexerEvent, ctx: ActivityContext): Row | undefined => {
  const data = e.data()
  let owner: string | undefined
  let coinType: string | undefined
  switch (e.type) {
    case "0x1::coin::WithdrawEvent":
    case "0x1::coin::DepositEvent":
      if (e.isModuleEvent) return undefined
      owner = e.accountAddress
      coinType =
        ctx.coinTypeByHandle.get(`${e.accountAddress}:${e.creationNumber}`) ?? ctx.deletedCoinStoreType.get(owner)
      break
    case "0x1::coin::CoinWithdraw":
    case "0x1::coin::CoinDeposit":
      owner = addressField(data, "account")
      coinType = stringField(data, "coin_type")
      break
    default:
      return undefined
  }
  const amount = uintField(data, "amount")
  if (owner === undefined || coinType === undefined || amount === undefined) return undefined
  const storage = primaryStoreOf(owner, pairedMetadataOf(coinType))
  if (storage === undefined) return undefined
  return {
    transaction_version: common.transaction_version,
    entry_function_id_str: common.entry_function_id_str,
    block_height: common.block_height,
    transaction_timestamp: common.transaction_timestamp,
    gas_fee_payer_address: null,
    event_index: BigInt(e.index),
    owner_address: owner,
    storage_id: storage,
    asset_type: coinType,
    is_frozen: null,
    amount,
    type: e.type,
    is_gas_fee: false,
    is_transaction_success: true,
    token_standard: "v1",
    storage_refund_amount: 0n
  }
}

const faEventRow = (common: Common, e: IndexerEvent, ctx: ActivityContext): Row | undefined => {
  const data = e.data()
  let store: string | undefined
  let amount: bigint | null = null
  let frozen: boolean | null = null
  switch (e.type) {
    case "0x1::fungible_asset::WithdrawEvent":
    case "0x1::fungible_asset::DepositEvent":
      store = e.isModuleEvent ? undefined : e.accountAddress
      amount = uintField(data, "amount") ?? null
      if (amount === null) return undefined
      break
    case "0x1::fungible_asset::FrozenEvent":
      store = e.isModuleEvent ? undefined : e.accountAddress
      frozen = boolField(data, "frozen") ?? null
      if (frozen === null) return undefined
      break
    case "0x1::fungible_asset::Withdraw":
    case "0x1::fungible_asset::Deposit":
      store = addressField(data, "store")
      amount = uintField(data, "amount") ?? null
      if (amount === null) return undefined
      break
    case "0x1::fungible_asset::Frozen":
      store = addressField(data, "store")
      frozen = boolField(data, "frozen") ?? null
      if (frozen === null) return undefined
      break
    default:
      return undefined
  }
  if (store === undefined) return undefined
  let owner: string | null = null
  let assetType: string | null = null
  const written = ctx.objects.get(store)
  if (written !== undefined) {
    owner = written.objectCore?.owner ?? null
    assetType = written.fungibleStore === undefined ? null : (metadataOfStore(written.fungibleStore) ?? null)
  } else {
    const deleted = ctx.deletedStores.get(store)
    if (deleted !== undefined) {
      owner = deleted.owner
      assetType = deleted.metadata
    }
  }
  return {
    transaction_version: common.transaction_version,
    entry_function_id_str: common.entry_function_id_str,
    block_height: common.block_height,
    transaction_timestamp: common.transaction_timestamp,
    gas_fee_payer_address: null,
    event_index: BigInt(e.index),
    owner_address: owner,
    storage_id: store,
    asset_type: assetType,
    is_frozen: frozen,
    amount,
    type: e.type,
    is_gas_fee: false,
    is_transaction_success: true,
    token_standard: "v2",
    storage_refund_amount: 0n
  }
}

/** A `FungibleStore`'s metadata address (`metadata: Object<Metadata>`), long form. */
export const metadataOfStore = (store: JsonValue | undefined): string | undefined =>
  objectAddressField(store, "metadata")

export const activityRows = (t: IndexerTransaction, ctx: ActivityContext): Row[] => {
  const rows: Row[] = []
  const common = commonOf(t)
  const gas = gasFeeRow(t, common)
  if (gas !== undefined) rows.push(gas)
  for (const e of t.events) {
    const v1 = coinEventRow(common, e, ctx)
    if (v1 !== undefined) rows.push(v1)
    const v2 = faEventRow(common, e, ctx)
    if (v2 !== undefined) rows.push(v2)
  }
  return rows
}
