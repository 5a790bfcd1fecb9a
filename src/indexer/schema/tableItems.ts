import { table } from "./TableSpec.js"

export const tableItems = table(
  "table_items",
  "Every table write or delete, by transaction version and write-set index.",
  {
    decoded_key: "jsonb",
    decoded_value: "jsonb?",
    key: "String",
    table_handle: "String",
    transaction_version: "bigint",
    write_set_change_index: "bigint",
    // pv2 columns.
    is_deleted: "Boolean?",
    transaction_block_height: "bigint?"
  },
  {
    primaryKey: ["transaction_version", "write_set_change_index"],
    indexes: [["table_handle"]]
  }
)

export const currentTableItems = table(
  "current_table_items",
  "The latest value of each table item.",
  {
    decoded_key: "jsonb",
    decoded_value: "jsonb?",
    is_deleted: "Boolean",
    key: "String",
    key_hash: "String",
    last_transaction_version: "bigint",
    table_handle: "String"
  },
  {
    primaryKey: ["table_handle", "key_hash"]
  }
)

export const tableMetadatas = table(
  "table_metadatas",
  "The key and value types of each table handle.",
  {
    handle: "String",
    key_type: "String",
    value_type: "String"
  },
  {
    primaryKey: ["handle"]
  }
)
