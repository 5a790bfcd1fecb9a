import { arrayRel, objectRel, table } from "./TableSpec.js"

export const userTransactions = table(
  "user_transactions",
  "One row per user transaction.",
  {
    block_height: "bigint",
    entry_function_contract_address: "String?",
    entry_function_function_name: "String?",
    entry_function_id_str: "String",
    entry_function_module_name: "String?",
    epoch: "bigint",
    expiration_timestamp_secs: "timestamp",
    gas_unit_price: "numeric",
    max_gas_amount: "numeric",
    parent_signature_type: "String",
    // pv2 has it (orderless transactions); the hosted schema the SDK was generated from does not yet.
    replay_protection_nonce: "numeric?",
    sender: "String",
    sequence_number: "bigint?",
    timestamp: "timestamp",
    version: "bigint"
  },
  {
    primaryKey: ["version"],
    indexes: [["sender", "version"], ["entry_function_id_str"]],
    relationships: [objectRel("signature", "signatures", ["version", "transaction_version"])]
  }
)

export const signatures = table(
  "signatures",
  "One row per signer key of a user transaction.",
  {
    is_sender_primary: "Boolean",
    multi_agent_index: "bigint",
    multi_sig_index: "bigint",
    public_key: "String",
    public_key_indices: "jsonb",
    signature: "String",
    signer: "String",
    threshold: "bigint",
    transaction_block_height: "bigint",
    transaction_version: "bigint",
    type: "String",
    // pv2 columns (the Explorer reads `signature { function_info }`).
    any_signature_type: "String?",
    public_key_type: "String?",
    function_info: "String?"
  },
  {
    primaryKey: ["transaction_version", "multi_agent_index", "multi_sig_index", "is_sender_primary"],
    indexes: [["signer"]]
  }
)

export const accountTransactions = table(
  "account_transactions",
  "The accounts a transaction touched (signers, event keys, written resources, owners of written objects).",
  {
    account_address: "String",
    transaction_version: "bigint"
  },
  {
    primaryKey: ["account_address", "transaction_version"],
    indexes: [["transaction_version"]],
    relationships: [
      objectRel("user_transaction", "user_transactions", ["transaction_version", "version"]),
      arrayRel("fungible_asset_activities", "fungible_asset_activities", [
        "transaction_version",
        "transaction_version"
      ]),
      arrayRel("token_activities_v2", "token_activities_v2", ["transaction_version", "transaction_version"]),
      arrayRel("delegated_staking_activities", "delegated_staking_activities", [
        "transaction_version",
        "transaction_version"
      ])
    ]
  }
)

export const blockMetadataTransactions = table(
  "block_metadata_transactions",
  "One row per block metadata transaction.",
  {
    block_height: "bigint",
    epoch: "bigint",
    failed_proposer_indices: "jsonb",
    id: "String",
    previous_block_votes_bitvec: "jsonb",
    proposer: "String",
    round: "bigint",
    timestamp: "timestamp",
    version: "bigint"
  },
  {
    primaryKey: ["version"]
  }
)

export const events = table(
  "events",
  "Every event, by transaction version and index.",
  {
    account_address: "String",
    creation_number: "bigint",
    data: "jsonb",
    event_index: "bigint",
    indexed_type: "String",
    sequence_number: "bigint",
    transaction_block_height: "bigint",
    transaction_version: "bigint",
    type: "String"
  },
  {
    primaryKey: ["transaction_version", "event_index"],
    indexes: [["account_address", "creation_number"]]
  }
)
