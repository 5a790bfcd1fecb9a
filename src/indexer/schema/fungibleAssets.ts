import type { Cell } from "../store/Dialect.js"
import { arrayRel, objectRel, table } from "./TableSpec.js"

const decimal = (c: Cell): bigint | undefined => (c === null ? undefined : BigInt(c as string))
const later = (a: Cell, b: Cell): Cell =>
  a === null ? b : b === null ? a : BigInt(a as string | bigint) >= BigInt(b as string | bigint) ? a : b

/**
 * The generated columns of `current_fungible_asset_balances` (pv2 migrations 2024-05-04-025823,
 * 2024-08-28-015552): the coin (v1) and fungible-asset (v2) halves of one store, summed and merged.
 */
const deriveBalanceColumns = (row: Record<string, Cell>): void => {
  const v1 = decimal(row.amount_v1 ?? null)
  const v2 = decimal(row.amount_v2 ?? null)
  row.amount = ((v1 ?? 0n) + (v2 ?? 0n)).toString()
  row.asset_type = row.asset_type_v1 ?? row.asset_type_v2 ?? null
  row.token_standard = (row.asset_type_v1 ?? null) !== null ? "v1" : "v2"
  row.last_transaction_version = later(row.last_transaction_version_v1 ?? null, row.last_transaction_version_v2 ?? null)
  row.last_transaction_timestamp = later(
    row.last_transaction_timestamp_v1 ?? null,
    row.last_transaction_timestamp_v2 ?? null
  )
}

export const fungibleAssetMetadata = table(
  "fungible_asset_metadata",
  "Coin (v1) and fungible-asset (v2) metadata, by asset type.",
  {
    asset_type: "String",
    creator_address: "String",
    decimals: "Int",
    icon_uri: "String?",
    last_transaction_timestamp: "timestamp",
    last_transaction_version: "bigint",
    maximum_v2: "numeric?",
    name: "String",
    project_uri: "String?",
    supply_aggregator_table_handle_v1: "String?",
    supply_aggregator_table_key_v1: "String?",
    supply_v2: "numeric?",
    symbol: "String",
    token_standard: "String"
  },
  {
    primaryKey: ["asset_type"],
    indexes: [["creator_address"]]
  }
)

export const fungibleAssetActivities = table(
  "fungible_asset_activities",
  "Withdrawals, deposits, freezes and one gas-fee row per user transaction.",
  {
    amount: "numeric?",
    asset_type: "String?",
    block_height: "bigint",
    entry_function_id_str: "String?",
    event_index: "bigint",
    gas_fee_payer_address: "String?",
    is_frozen: "Boolean?",
    is_gas_fee: "Boolean",
    is_transaction_success: "Boolean",
    owner_address: "String?",
    storage_id: "String",
    storage_refund_amount: "numeric",
    token_standard: "String",
    transaction_timestamp: "timestamp",
    transaction_version: "bigint",
    type: "String"
  },
  {
    primaryKey: ["transaction_version", "event_index"],
    indexes: [["owner_address"], ["asset_type"]],
    relationships: [
      objectRel("metadata", "fungible_asset_metadata", ["asset_type", "asset_type"]),
      arrayRel("owner_aptos_names", "current_aptos_names", ["owner_address", "registered_address"])
    ]
  }
)

export const currentFungibleAssetBalances = table(
  "current_fungible_asset_balances",
  "One row per store: the coin and fungible-asset halves paired (amount = both).",
  {
    amount: "numeric",
    amount_v1: "numeric?",
    amount_v2: "numeric?",
    asset_type: "String",
    asset_type_v1: "String?",
    asset_type_v2: "String?",
    is_frozen: "Boolean",
    is_primary: "Boolean",
    last_transaction_timestamp: "timestamp?",
    last_transaction_timestamp_v1: "timestamp?",
    last_transaction_timestamp_v2: "timestamp?",
    last_transaction_version: "bigint?",
    last_transaction_version_v1: "bigint?",
    last_transaction_version_v2: "bigint?",
    owner_address: "String",
    storage_id: "String",
    token_standard: "String"
  },
  {
    primaryKey: ["storage_id"],
    derive: deriveBalanceColumns,
    indexes: [["owner_address"], ["asset_type"]],
    relationships: [objectRel("metadata", "fungible_asset_metadata", ["asset_type", "asset_type"])]
  }
)

export const fungibleAssetToCoinMappings = table(
  "fungible_asset_to_coin_mappings",
  "The coin type paired with a fungible asset's metadata address.",
  {
    fungible_asset_metadata_address: "String",
    coin_type: "String",
    last_transaction_version: "bigint"
  },
  {
    primaryKey: ["fungible_asset_metadata_address"]
  }
)

export const coinSupply = table(
  "coin_supply",
  "APT supply per transaction (when tracked).",
  {
    coin_type: "String",
    coin_type_hash: "String",
    supply: "numeric",
    transaction_epoch: "bigint",
    transaction_timestamp: "timestamp",
    transaction_version: "bigint"
  },
  {
    primaryKey: ["transaction_version", "coin_type_hash"]
  }
)
