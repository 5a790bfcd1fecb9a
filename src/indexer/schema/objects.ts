import { table } from "./TableSpec.js"

export const currentObjects = table(
  "current_objects",
  "The latest state of each object (deleted objects keep their last owner).",
  {
    allow_ungated_transfer: "Boolean",
    is_deleted: "Boolean",
    last_guid_creation_num: "numeric",
    last_transaction_version: "bigint",
    object_address: "String",
    owner_address: "String",
    state_key_hash: "String",
    // pv2 has it (not the hosted schema the SDK was generated from).
    untransferrable: "Boolean?"
  },
  {
    primaryKey: ["object_address"],
    indexes: [["owner_address"]]
  }
)
