import { arrayRel, objectRel, table } from "./TableSpec.js"

export const currentCollectionsV2 = table(
  "current_collections_v2",
  "Digital-asset collections (v1 and v2).",
  {
    collection_id: "String",
    collection_name: "String",
    collection_properties: "jsonb?",
    creator_address: "String",
    current_supply: "numeric",
    description: "String",
    last_transaction_timestamp: "timestamp",
    last_transaction_version: "bigint",
    max_supply: "numeric?",
    mutable_description: "Boolean?",
    mutable_uri: "Boolean?",
    table_handle_v1: "String?",
    token_standard: "String",
    total_minted_v2: "numeric?",
    uri: "String"
  },
  {
    primaryKey: ["collection_id"]
  }
)

export const currentTokenDatasV2 = table(
  "current_token_datas_v2",
  "Digital assets (token data, v1 and v2).",
  {
    collection_id: "String",
    decimals: "bigint?",
    description: "String",
    is_deleted_v2: "Boolean?",
    is_fungible_v2: "Boolean?",
    largest_property_version_v1: "numeric?",
    last_transaction_timestamp: "timestamp",
    last_transaction_version: "bigint",
    maximum: "numeric?",
    supply: "numeric?",
    token_data_id: "String",
    token_name: "String",
    // Null for a burned token (the reference writes JSON null).
    token_properties: "jsonb?",
    token_standard: "String",
    token_uri: "String"
  },
  {
    primaryKey: ["token_data_id"],
    indexes: [["collection_id"]],
    relationships: [
      objectRel("aptos_name", "current_aptos_names", ["token_name", "token_name"]),
      objectRel("current_collection", "current_collections_v2", ["collection_id", "collection_id"]),
      objectRel("current_royalty_v1", "current_token_royalty_v1", ["token_data_id", "token_data_id"]),
      arrayRel("current_token_ownerships", "current_token_ownerships_v2", ["token_data_id", "token_data_id"])
    ]
  }
)

export const currentTokenOwnershipsV2 = table(
  "current_token_ownerships_v2",
  "Who holds each token (amount 0 after a transfer or burn).",
  {
    amount: "numeric",
    is_fungible_v2: "Boolean?",
    is_soulbound_v2: "Boolean?",
    last_transaction_timestamp: "timestamp",
    last_transaction_version: "bigint",
    non_transferrable_by_owner: "Boolean?",
    owner_address: "String",
    property_version_v1: "numeric",
    storage_id: "String",
    table_type_v1: "String?",
    token_data_id: "String",
    token_properties_mutated_v1: "jsonb?",
    token_standard: "String"
  },
  {
    primaryKey: ["token_data_id", "property_version_v1", "owner_address", "storage_id"],
    indexes: [["owner_address"]],
    relationships: [
      arrayRel("composed_nfts", "current_token_ownerships_v2", ["token_data_id", "owner_address"]),
      objectRel("current_token_data", "current_token_datas_v2", ["token_data_id", "token_data_id"])
    ]
  }
)

export const tokenActivitiesV2 = table(
  "token_activities_v2",
  "Mints, burns, transfers and mutations of tokens.",
  {
    after_value: "String?",
    before_value: "String?",
    entry_function_id_str: "String?",
    event_account_address: "String",
    event_index: "bigint",
    from_address: "String?",
    is_fungible_v2: "Boolean?",
    property_version_v1: "numeric",
    to_address: "String?",
    token_amount: "numeric",
    token_data_id: "String",
    token_standard: "String",
    transaction_timestamp: "timestamp",
    transaction_version: "bigint",
    type: "String"
  },
  {
    primaryKey: ["transaction_version", "event_index"],
    indexes: [["token_data_id"]],
    relationships: [
      arrayRel("aptos_names_from", "current_aptos_names", ["from_address", "registered_address"]),
      arrayRel("aptos_names_to", "current_aptos_names", ["to_address", "registered_address"]),
      objectRel("current_token_data", "current_token_datas_v2", ["token_data_id", "token_data_id"])
    ]
  }
)

export const currentTokenPendingClaims = table(
  "current_token_pending_claims",
  "Token v1 offers not yet claimed.",
  {
    amount: "numeric",
    collection_data_id_hash: "String",
    collection_id: "String",
    collection_name: "String",
    creator_address: "String",
    from_address: "String",
    last_transaction_timestamp: "timestamp",
    last_transaction_version: "bigint",
    name: "String",
    property_version: "numeric",
    table_handle: "String",
    to_address: "String",
    token_data_id: "String",
    token_data_id_hash: "String"
  },
  {
    primaryKey: ["token_data_id_hash", "property_version", "from_address", "to_address"],
    relationships: [
      objectRel("current_collection_v2", "current_collections_v2", ["collection_id", "collection_id"]),
      objectRel("current_token_data_v2", "current_token_datas_v2", ["token_data_id", "token_data_id"])
    ]
  }
)

export const currentTokenRoyaltyV1 = table(
  "current_token_royalty_v1",
  "Token v1 royalties.",
  {
    last_transaction_timestamp: "timestamp",
    last_transaction_version: "bigint",
    payee_address: "String",
    royalty_points_denominator: "numeric",
    royalty_points_numerator: "numeric",
    token_data_id: "String"
  },
  {
    primaryKey: ["token_data_id"]
  }
)

export const currentCollectionOwnershipV2View = table(
  "current_collection_ownership_v2_view",
  "Per owner and collection: the distinct tokens held.",
  {
    collection_id: "String?",
    collection_name: "String?",
    collection_uri: "String?",
    creator_address: "String?",
    distinct_tokens: "bigint?",
    last_transaction_version: "bigint?",
    owner_address: "String?",
    single_token_uri: "String?"
  },
  {
    relationships: [objectRel("current_collection", "current_collections_v2", ["collection_id", "collection_id"])],
    // pv2 migration 2024-08-16-213505_fix_collections_view: live ownerships (amount > 0) grouped by collection.
    view: (d) => `SELECT c.collection_id, c.collection_name, min(c.uri) AS collection_uri, c.creator_address,
        count(DISTINCT o.token_data_id) AS distinct_tokens, max(o.last_transaction_version) AS last_transaction_version,
        o.owner_address, min(t.token_uri) AS single_token_uri
      FROM current_token_ownerships_v2 o
      JOIN current_token_datas_v2 t ON o.token_data_id = t.token_data_id
      JOIN current_collections_v2 c ON t.collection_id = c.collection_id
      WHERE ${d.positive("o.amount", "numeric")}
      GROUP BY o.owner_address, c.creator_address, c.collection_name, c.collection_id`
  }
)
