/**
 * `fungible_asset_metadata` rows (pv2 `v2_fungible_metadata.rs`) and the
 * `fungible_asset_to_coin_mappings` rows that come with coins:
 * - v1, from every written `0x1::coin::CoinInfo<T>`: asset_type T, creator T's address, the supply
 *   aggregator's table handle and key when the supply is an aggregator;
 * - v2, from every written `0x1::fungible_asset::Metadata` at X: asset_type X, creator the owner of
 *   X's `ObjectCore` (the burn address without one), supply and maximum from `Supply` or
 *   `ConcurrentSupply` in the same group (a supply change rewrites the group, so the row follows it).
 */
import type { IndexerTransaction, JsonValue, WriteResource } from "../input/IndexerTransaction.js"
import { field, optionField, stringField, uintField, uintOf } from "../moveValues.js"
import type { AddressResources } from "../objectResources.js"
import type { Row } from "../Processor.js"
import { timestampSecondsOfMicros, truncate } from "../rows.js"
import { BURN_ADDRESS, coinCreatorOf, coinTypeOf, pairedMetadataOf } from "./coinPairing.js"

const NAME_LENGTH = 32
const SYMBOL_LENGTH = 32
/** The reference's `URI_LENGTH`. */
const URI_LENGTH = 512

const decimalsOf = (data: JsonValue | undefined): number | undefined => {
  const d = uintField(data, "decimals")
  return d === undefined || d > 255n ? undefined : Number(d)
}

/** The coin (v1) metadata row and its FA pairing for a written `CoinInfo<T>`. */
export const coinInfoRows = (
  t: IndexerTransaction,
  c: WriteResource
): { metadata: Row; mapping: Row; coinType: string } | undefined => {
  if (!c.typeStr.startsWith("0x1::coin::CoinInfo<")) return undefined
  const coinType = coinTypeOf(c.struct)
  const creator = coinCreatorOf(c.struct)
  const data = c.data()
  const name = stringField(data, "name")
  const symbol = stringField(data, "symbol")
  const decimals = decimalsOf(data)
  if (coinType === undefined || creator === undefined || name === undefined || symbol === undefined) return undefined
  if (decimals === undefined) return undefined
  // supply: Option<OptionalAggregator { aggregator: Option<Aggregator { handle, key, limit }>, integer }>
  const supply = optionField(data, "supply")
  const aggregator = supply === null || supply === undefined ? null : optionField(supply, "aggregator")
  const handle = aggregator === null || aggregator === undefined ? null : (stringField(aggregator, "handle") ?? null)
  const key = aggregator === null || aggregator === undefined ? null : (stringField(aggregator, "key") ?? null)
  const timestamp = timestampSecondsOfMicros(t.timestampMicros)
  return {
    coinType,
    metadata: {
      asset_type: coinType,
      creator_address: creator,
      name: truncate(name, NAME_LENGTH),
      symbol: truncate(symbol, SYMBOL_LENGTH),
      decimals,
      icon_uri: null,
      project_uri: null,
      last_transaction_version: t.version,
      last_transaction_timestamp: timestamp,
      supply_aggregator_table_handle_v1: handle,
      supply_aggregator_table_key_v1: key,
      token_standard: "v1",
      supply_v2: null,
      maximum_v2: null
    },
    mapping: {
      fungible_asset_metadata_address: pairedMetadataOf(coinType),
      coin_type: coinType,
      last_transaction_version: t.version
    }
  }
}

/** The fungible-asset (v2) metadata row for a written `Metadata` (its group's other members in `resources`). */
export const faMetadataRow = (
  t: IndexerTransaction,
  c: WriteResource,
  resources: AddressResources | undefined
): Row | undefined => {
  if (c.typeStr !== "0x1::fungible_asset::Metadata") return undefined
  const data = c.data()
  const name = stringField(data, "name")
  const symbol = stringField(data, "symbol")
  const decimals = decimalsOf(data)
  const iconUri = stringField(data, "icon_uri")
  const projectUri = stringField(data, "project_uri")
  if (name === undefined || symbol === undefined || decimals === undefined) return undefined
  if (iconUri === undefined || projectUri === undefined) return undefined
  let supply: bigint | null = null
  let maximum: bigint | null = null
  if (resources?.supply !== undefined) {
    supply = uintField(resources.supply, "current") ?? null
    const max = optionField(resources.supply, "maximum")
    maximum = max === null || max === undefined ? null : (uintOf(max) ?? null)
  } else if (resources?.concurrentSupply !== undefined) {
    const current = field(resources.concurrentSupply, "current")
    supply = uintField(current, "value") ?? null
    maximum = uintField(current, "max_value") ?? null
  }
  return {
    asset_type: c.address,
    creator_address: resources?.objectCore?.owner ?? BURN_ADDRESS,
    name: truncate(name, NAME_LENGTH),
    symbol: truncate(symbol, SYMBOL_LENGTH),
    decimals,
    icon_uri: truncate(iconUri, URI_LENGTH),
    project_uri: truncate(projectUri, URI_LENGTH),
    last_transaction_version: t.version,
    last_transaction_timestamp: timestampSecondsOfMicros(t.timestampMicros),
    supply_aggregator_table_handle_v1: null,
    supply_aggregator_table_key_v1: null,
    token_standard: "v2",
    supply_v2: supply,
    maximum_v2: maximum
  }
}
