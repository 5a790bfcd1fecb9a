/**
 * `fungible_asset_processor` (pv2 `processors/fungible_asset/`, entry `parse_v2_coin`): coin and
 * fungible-asset metadata, activities (gas fee rows included), the paired current balances and the
 * coin-to-asset mappings, for a batch. Per transaction it reads, as the reference does, the objects
 * it wrote, the CoinStores' event handles and the stores deleted by `FungibleStoreDeletion` events,
 * then the activities from the events and the rows from the write set.
 */
import type { IndexerTransaction } from "../input/IndexerTransaction.js"
import { addressField } from "../moveValues.js"
import { resourcesByAddress } from "../objectResources.js"
import type { Processor, Row, TableWrite } from "../Processor.js"
import { insertRows, upsertRows } from "../rows.js"
import { activityRows } from "./activities.js"
import { balanceWrites, coinStoreHalf, deletedStoreHalf, fungibleStoreHalf } from "./balances.js"
import { CoinPairings, coinTypeOf } from "./coinPairing.js"
import { coinInfoRows, faMetadataRow } from "./metadata.js"

export interface FungibleAssetRows {
  readonly activities: Row[]
  readonly metadata: Row[]
  readonly mappings: Row[]
  readonly coinHalves: Row[]
  readonly storeHalves: Row[]
}

/** The rows of one transaction, appended to `out` (`pairings` carries what earlier ones taught). */
export const fungibleAssetRowsOf = (t: IndexerTransaction, pairings: CoinPairings, out: FungibleAssetRows): void => {
  const objects = resourcesByAddress(t)

  const deletedStores = new Map<string, { owner: string; metadata: string }>()
  for (const e of t.events) {
    if (e.type !== "0x1::fungible_asset::FungibleStoreDeletion") continue
    const data = e.data()
    const store = addressField(data, "store")
    const owner = addressField(data, "owner")
    const metadata = addressField(data, "metadata")
    if (store !== undefined && owner !== undefined && metadata !== undefined)
      deletedStores.set(store, { owner, metadata })
  }

  const coinTypeByHandle = new Map<string, string>()
  const deletedCoinStoreType = new Map<string, string>()
  const coinHalves: Row[] = []
  for (const c of t.changes) {
    const half = coinStoreHalf(t, c)
    if (half === undefined) continue
    coinHalves.push(half.row)
    for (const h of half.handles) coinTypeByHandle.set(h, half.coinType)
    if (c.type === "delete_resource") deletedCoinStoreType.set(half.owner, half.coinType)
  }

  out.activities.push(...activityRows(t, { objects, coinTypeByHandle, deletedCoinStoreType, deletedStores }))

  for (const c of t.changes) {
    if (c.type === "write_resource") {
      const coin = coinInfoRows(t, c)
      if (coin !== undefined) {
        out.metadata.push(coin.metadata)
        out.mappings.push(coin.mapping)
        pairings.learn(coin.coinType)
      }
      const fa = faMetadataRow(t, c, objects.get(c.address))
      if (fa !== undefined) out.metadata.push(fa)
      if (c.typeStr === "0x1::fungible_asset::FungibleStore") {
        const half = fungibleStoreHalf(t, c.address, objects.get(c.address) ?? {}, objects, pairings)
        if (half !== undefined) out.storeHalves.push(half)
      } else if (c.typeStr === "0x1::object::ObjectCore" && objects.get(c.address)?.fungibleStore === undefined) {
        // The store left its object (which lives on) in this transaction.
        const deleted = deletedStores.get(c.address)
        const owner = objects.get(c.address)?.objectCore?.owner
        if (deleted !== undefined && owner !== undefined)
          out.storeHalves.push(deletedStoreHalf(t, c.address, owner, deleted.metadata, objects, pairings))
      }
    } else if (c.type === "delete_resource" && c.isGroup && c.typeStr === "0x1::object::ObjectGroup") {
      const deleted = deletedStores.get(c.address)
      if (deleted !== undefined)
        out.storeHalves.push(deletedStoreHalf(t, c.address, deleted.owner, deleted.metadata, objects, pairings))
    }
  }
  // Coin halves after the coin infos: a CoinStore's pairing does not depend on them (its storage id
  // is derived from the coin type), so order within the transaction does not matter for them.
  out.coinHalves.push(...coinHalves)
}

export const fungibleAssetWrites = (batch: ReadonlyArray<IndexerTransaction>): TableWrite[] => {
  // The batch's coin pairings first, as the reference builds its mapping before the rows.
  const pairings = new CoinPairings()
  for (const t of batch)
    for (const c of t.changes)
      if (c.type === "write_resource" && c.typeStr.startsWith("0x1::coin::CoinInfo<")) {
        const coinType = coinTypeOf(c.struct)
        if (coinType !== undefined) pairings.learn(coinType)
      }
  const out: FungibleAssetRows = { activities: [], metadata: [], mappings: [], coinHalves: [], storeHalves: [] }
  for (const t of batch) fungibleAssetRowsOf(t, pairings, out)
  return [
    ...upsertRows(
      { table: "fungible_asset_metadata", key: ["asset_type"], guard: "last_transaction_version" },
      out.metadata
    ),
    ...insertRows("fungible_asset_activities", out.activities),
    ...balanceWrites(out.coinHalves, out.storeHalves),
    ...upsertRows(
      {
        table: "fungible_asset_to_coin_mappings",
        key: ["fungible_asset_metadata_address"],
        guard: "last_transaction_version"
      },
      out.mappings
    )
  ]
}

export const fungibleAssetProcessor: Processor = {
  name: "fungible_asset_processor",
  tables: [
    "fungible_asset_metadata",
    "fungible_asset_activities",
    "current_fungible_asset_balances",
    "fungible_asset_to_coin_mappings"
  ],
  process: fungibleAssetWrites
}
