/**
 * Token v1 (`0x3::token`, tables rather than objects) in the token tables, as the reference's
 * token processor fills them (pv2 `token_v2_models/*::get_v1_from_*_table_item`): from the decoded
 * table items (the node's table info) of a batch's user transactions.
 * - `CollectionData` items → `current_collections_v2` (id `0x` + sha256 of `creator::name`,
 *   `table_handle_v1`, standard `v1`); the creator is the owner of the `Collections` resource
 *   holding the table, written in the same batch (a collection's writes always touch it).
 * - `TokenData` items → `current_token_datas_v2` (id `0x` + sha256 of `creator::collection::name`,
 *   maximum, supply, largest property version, default properties).
 * - `Token` items of a `TokenStore`'s table → `current_token_ownerships_v2` (storage id = the
 *   table, owner = the store's account, amount; a deleted item → amount 0).
 * v1 token activities (`0x3::token` events) are not indexed (docs/indexer-assets.md).
 */
import { createHash } from "node:crypto"
import type { IndexerTransaction, JsonValue } from "../input/IndexerTransaction.js"
import type { Row } from "../Processor.js"
import { timestampOfMicros } from "../rows.js"
import { address, bool, field, NAME_LENGTH, text, truncate, unsigned, URI_LENGTH } from "./moveJson.js"
import { propertyValueText } from "./propertyMap.js"

/** `0x` + the SHA-256 hex of `text` (the reference's `hash_str` ids). */
const idOf = (parts: ReadonlyArray<string>): string =>
  `0x${createHash("sha256").update(parts.join("::"), "utf8").digest("hex")}`

/** v1 property types by name (`0x3::property_map`) → the type codes `propertyValueText` reads. */
const V1_TYPE_CODE: { readonly [type: string]: number } = {
  bool: 0,
  u8: 1,
  u16: 2,
  u32: 3,
  u64: 4,
  u128: 5,
  u256: 6,
  address: 7,
  "vector<u8>": 8,
  "0x1::string::String": 9
}

/** A v1 `PropertyMap` (`{map: {data: [{key, value: {value, type}}]}}`) as key → text. */
export const v1PropertyMapJson = (v: JsonValue | undefined): { [key: string]: string } | null => {
  const entries = field(field(v, "map"), "data")
  if (!Array.isArray(entries)) return null
  const out: Array<[string, string]> = []
  for (const e of entries) {
    const key = text(field(e, "key"))
    const type = text(field(field(e, "value"), "type"))
    const hex = text(field(field(e, "value"), "value"))
    if (key === undefined || type === undefined || hex === undefined) return null
    const code = V1_TYPE_CODE[type]
    const body = hex.startsWith("0x") ? hex.slice(2) : hex
    const bytes = /^([0-9a-fA-F]{2})*$/.test(body) ? Uint8Array.from(Buffer.from(body, "hex")) : undefined
    out.push([key, (code === undefined || bytes === undefined ? undefined : propertyValueText(code, bytes)) ?? hex])
  }
  return Object.fromEntries(out)
}

/** Table handle → [owner, resource type] from the batch's `Collections` and `TokenStore` resources. */
export const v1TableOwners = (batch: ReadonlyArray<IndexerTransaction>): Map<string, [string, string]> => {
  const out = new Map<string, [string, string]>()
  for (const t of batch) {
    if (t.kind !== "user") continue
    for (const c of t.changes) {
      if (c.type !== "write_resource") continue
      if (c.typeStr === "0x3::token::Collections") {
        const data = c.data()
        for (const f of ["collection_data", "token_data"]) {
          const handle = address(field(field(data, f), "handle"))
          if (handle !== undefined) out.set(handle, [c.address, c.typeStr])
        }
      } else if (c.typeStr === "0x3::token::TokenStore") {
        const handle = address(field(field(c.data(), "tokens"), "handle"))
        if (handle !== undefined) out.set(handle, [c.address, c.typeStr])
      }
    }
  }
  return out
}

const tokenDataIdOf = (v: JsonValue | undefined) => {
  const creator = address(field(v, "creator"))
  const collection = text(field(v, "collection"))
  const name = text(field(v, "name"))
  return creator === undefined || collection === undefined || name === undefined
    ? undefined
    : { creator, collection, name }
}

export interface V1Rows {
  readonly collections: Row[]
  readonly tokenDatas: Row[]
  readonly ownerships: Row[]
  /** Deleted TokenStore items: partial updates, as the reference's deleted ownerships. */
  readonly deletedOwnerships: Row[]
}

/** The v1 rows of one user transaction's table changes. */
export const v1RowsOf = (t: IndexerTransaction, owners: Map<string, [string, string]>, rows: V1Rows): void => {
  if (t.kind !== "user") return
  const timestamp = timestampOfMicros(t.timestampMicros)
  for (const c of t.changes) {
    if (c.type !== "write_table_item" && c.type !== "delete_table_item") continue
    const data = c.data()
    if (data === undefined) continue
    const owner = owners.get(c.handle)
    if (c.type === "write_table_item" && data.value_type === "0x3::token::CollectionData") {
      if (owner === undefined) continue
      const v = data.value
      const name = text(field(v, "name"))
      const uri = text(field(v, "uri"))
      const description = text(field(v, "description"))
      const supply = unsigned(field(v, "supply"))
      const maximum = unsigned(field(v, "maximum"))
      const mutability = field(v, "mutability_config")
      if (
        name === undefined ||
        uri === undefined ||
        description === undefined ||
        supply === undefined ||
        maximum === undefined
      )
        continue
      rows.collections.push({
        collection_id: idOf([owner[0], name]),
        creator_address: owner[0],
        collection_name: truncate(name, NAME_LENGTH),
        description,
        uri: truncate(uri, URI_LENGTH),
        current_supply: supply,
        max_supply: maximum,
        total_minted_v2: null,
        mutable_description: bool(field(mutability, "description")) ?? null,
        mutable_uri: bool(field(mutability, "uri")) ?? null,
        table_handle_v1: c.handle,
        token_standard: "v1",
        last_transaction_version: t.version,
        last_transaction_timestamp: timestamp,
        collection_properties: null
      })
    } else if (c.type === "write_table_item" && data.value_type === "0x3::token::TokenData") {
      const id = tokenDataIdOf(data.key)
      const v = data.value
      const uri = text(field(v, "uri"))
      const description = text(field(v, "description"))
      if (id === undefined || uri === undefined || description === undefined) continue
      rows.tokenDatas.push({
        token_data_id: idOf([id.creator, id.collection, id.name]),
        collection_id: idOf([id.creator, id.collection]),
        token_name: truncate(id.name, NAME_LENGTH),
        maximum: unsigned(field(v, "maximum")) ?? null,
        supply: unsigned(field(v, "supply")) ?? null,
        largest_property_version_v1: unsigned(field(v, "largest_property_version")) ?? null,
        token_uri: truncate(uri, URI_LENGTH),
        description,
        token_properties: v1PropertyMapJson(field(v, "default_properties")),
        token_standard: "v1",
        is_fungible_v2: null,
        last_transaction_version: t.version,
        last_transaction_timestamp: timestamp,
        decimals: null,
        is_deleted_v2: null
      })
    } else if (owner !== undefined && owner[1] === "0x3::token::TokenStore") {
      // A token of a TokenStore: written (its amount) or deleted (0).
      const tokenId = c.type === "write_table_item" ? field(data.value, "id") : data.key
      const id = tokenDataIdOf(field(tokenId, "token_data_id"))
      const propertyVersion = unsigned(field(tokenId, "property_version"))
      if (id === undefined || propertyVersion === undefined) continue
      const amount = c.type === "write_table_item" ? unsigned(field(data.value, "amount")) : 0n
      if (amount === undefined) continue
      const target = c.type === "write_table_item" ? rows.ownerships : rows.deletedOwnerships
      target.push({
        token_data_id: idOf([id.creator, id.collection, id.name]),
        property_version_v1: propertyVersion,
        owner_address: owner[0],
        storage_id: c.handle,
        amount,
        table_type_v1: "0x3::token::TokenStore",
        token_properties_mutated_v1:
          c.type === "write_table_item" ? v1PropertyMapJson(field(data.value, "token_properties")) : null,
        is_soulbound_v2: null,
        token_standard: "v1",
        is_fungible_v2: null,
        last_transaction_version: t.version,
        last_transaction_timestamp: timestamp,
        non_transferrable_by_owner: null
      })
    }
  }
}
