import { table } from "./TableSpec.js"

export const currentAnsLookupV2 = table(
  "current_ans_lookup_v2",
  "Aptos Names (empty on a local chain: the ANS processor does not run on one).",
  {
    domain: "String",
    expiration_timestamp: "timestamp",
    is_deleted: "Boolean",
    last_transaction_version: "bigint",
    registered_address: "String?",
    subdomain: "String",
    token_name: "String?",
    token_standard: "String"
  },
  {
    primaryKey: ["domain", "subdomain", "token_standard"]
  }
)

export const currentAptosNames = table(
  "current_aptos_names",
  "Aptos Names (empty on a local chain, as on run-localnet).",
  {
    domain: "String?",
    domain_expiration_timestamp: "timestamp?",
    domain_with_suffix: "String?",
    expiration_timestamp: "timestamp?",
    is_active: "Boolean?",
    is_primary: "Boolean?",
    last_transaction_version: "bigint?",
    owner_address: "String?",
    registered_address: "String?",
    subdomain: "String?",
    subdomain_expiration_policy: "bigint?",
    token_name: "String?",
    token_standard: "String?"
  }
)
