/**
 * `current_fungible_asset_balances` (pv2 `v2_fungible_asset_balances.rs`, `fungible_asset_storer.rs`):
 * one row per store, its coin (v1) and fungible-asset (v2) halves written independently, each
 * guarded by its own version column, so neither clobbers the other.
 * - v1, from each written `0x1::coin::CoinStore<T>`: storage id the owner's primary store of T's
 *   paired asset (where the coin's balance moves when it migrates), amount `coin.value`, primary;
 *   a deleted CoinStore writes amount 0.
 * - v2, from each written `FungibleStore` at S: owner from S's `ObjectCore` (burn address without
 *   one), asset_type_v2 the metadata address, asset_type_v1 the paired coin type when there is one
 *   (kept from the stored row when not known here), amount from `ConcurrentFungibleBalance` when
 *   present, else `balance`, `is_primary` = S is the owner's primary store of that metadata; a
 *   store deleted with a `FungibleStoreDeletion` event writes amount 0, not primary.
 * The store computes amount (v1 + v2), asset_type (v1 first), token_standard and the latest version
 * and timestamp (the generated columns).
 */
import type { IndexerChange, IndexerTransaction, JsonValue } from "../input/IndexerTransaction.js"
import { addressField, boolField, field, objectAddressField, uintField } from "../moveValues.js"
import type { AddressResources } from "../objectResources.js"
import type { Row, TableWrite } from "../Processor.js"
import { timestampSecondsOfMicros, upsertRows } from "../rows.js"
import { BURN_ADDRESS, type CoinPairings, coinTypeOf, pairedMetadataOf, primaryStoreOf } from "./coinPairing.js"

const TABLE = "current_fungible_asset_balances"

/** A v1 half: also yields the CoinStore's event handles (for the coin activities) and its coin type. */
export interface CoinHalf {
  readonly row: Row
  readonly coinType: string
  readonly owner: string
  readonly handles: ReadonlyArray<string>
}

/** An `EventHandle`'s key (`guid.id`: address and creation number) as `address:creation number`. */
const handleOf = (handle: JsonValue | undefined): string | undefined => {
  const id = field(field(handle, "guid"), "id")
  const addr = addressField(id, "addr")
  const creation = uintField(id, "creation_num")
  return addr === undefined || creation === undefined ? undefined : `${addr}:${creation}`
}

export const coinStoreHalf = (t: IndexerTransaction, c: IndexerChange): CoinHalf | undefined => {
  if (c.type !== "write_resource" && c.type !== "delete_resource") return undefined
  if (!c.typeStr.startsWith("0x1::coin::CoinStore<")) return undefined
  const coinType = coinTypeOf(c.struct)
  if (coinType === undefined) return undefined
  const storage = primaryStoreOf(c.address, pairedMetadataOf(coinType))
  if (storage === undefined) return undefined
  let amount = 0n
  let frozen = false
  const handles: string[] = []
  if (c.type === "write_resource") {
    const data = c.data()
    const value = uintField(field(data, "coin"), "value")
    const isFrozen = boolField(data, "frozen")
    if (value === undefined || isFrozen === undefined) return undefined
    amount = value
    frozen = isFrozen
    for (const h of [handleOf(field(data, "deposit_events")), handleOf(field(data, "withdraw_events"))])
      if (h !== undefined) handles.push(h)
  }
  const timestamp = timestampSecondsOfMicros(t.timestampMicros)
  return {
    coinType,
    owner: c.address,
    handles,
    row: {
      storage_id: storage,
      owner_address: c.address,
      asset_type_v1: coinType,
      asset_type_v2: null,
      is_primary: true,
      is_frozen: frozen,
      amount_v1: amount,
      amount_v2: null,
      last_transaction_version_v1: t.version,
      last_transaction_version_v2: null,
      last_transaction_timestamp_v1: timestamp,
      last_transaction_timestamp_v2: null
    }
  }
}

const v2Row = (
  t: IndexerTransaction,
  storage: string,
  owner: string,
  metadata: string,
  isPrimary: boolean,
  frozen: boolean,
  amount: bigint,
  pairings: CoinPairings,
  pairing: JsonValue | undefined
): Row => {
  const timestamp = timestampSecondsOfMicros(t.timestampMicros)
  return {
    storage_id: storage,
    owner_address: owner,
    asset_type_v1: pairings.coinTypeOf(metadata, t, pairing) ?? null,
    asset_type_v2: metadata,
    is_primary: isPrimary,
    is_frozen: frozen,
    amount_v1: null,
    amount_v2: amount,
    last_transaction_version_v1: null,
    last_transaction_version_v2: t.version,
    last_transaction_timestamp_v1: null,
    last_transaction_timestamp_v2: timestamp
  }
}

/** The v2 half of a store written at `address` (its group's members in `resources`). */
export const fungibleStoreHalf = (
  t: IndexerTransaction,
  address: string,
  resources: AddressResources,
  objects: ReadonlyMap<string, AddressResources>,
  pairings: CoinPairings
): Row | undefined => {
  const store = resources.fungibleStore
  if (store === undefined) return undefined
  const metadata = objectAddressField(store, "metadata")
  const frozen = boolField(store, "frozen")
  const balance = uintField(store, "balance")
  if (metadata === undefined || frozen === undefined || balance === undefined) return undefined
  const concurrent =
    resources.concurrentBalance === undefined
      ? undefined
      : uintField(field(resources.concurrentBalance, "balance"), "value")
  const owner = resources.objectCore?.owner ?? BURN_ADDRESS
  const isPrimary = primaryStoreOf(owner, metadata) === address
  return v2Row(
    t,
    address,
    owner,
    metadata,
    isPrimary,
    frozen,
    concurrent ?? balance,
    pairings,
    objects.get(metadata)?.pairedCoinType
  )
}

/** The v2 half of a store deleted in the transaction (amount 0, never primary). */
export const deletedStoreHalf = (
  t: IndexerTransaction,
  address: string,
  owner: string,
  metadata: string,
  objects: ReadonlyMap<string, AddressResources>,
  pairings: CoinPairings
): Row => v2Row(t, address, owner, metadata, false, false, 0n, pairings, objects.get(metadata)?.pairedCoinType)

/** The two upserts of a batch's halves (each collapsed to one row per store). */
export const balanceWrites = (v1: ReadonlyArray<Row>, v2: ReadonlyArray<Row>): TableWrite[] => [
  ...upsertRows(
    {
      table: TABLE,
      key: ["storage_id"],
      guard: "last_transaction_version_v1",
      update: [
        "owner_address",
        "asset_type_v1",
        "is_frozen",
        "amount_v1",
        "last_transaction_timestamp_v1",
        "last_transaction_version_v1"
      ]
    },
    v1
  ),
  ...upsertRows(
    {
      table: TABLE,
      key: ["storage_id"],
      guard: "last_transaction_version_v2",
      update: [
        "owner_address",
        "asset_type_v1",
        "asset_type_v2",
        "is_primary",
        "is_frozen",
        "amount_v2",
        "last_transaction_timestamp_v2",
        "last_transaction_version_v2"
      ],
      coalesce: ["asset_type_v1"]
    },
    v2
  )
]
