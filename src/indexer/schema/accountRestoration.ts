import { table } from "./TableSpec.js"

export const authKeyAccountAddresses = table(
  "auth_key_account_addresses",
  "The authentication key of accounts whose key is not their address.",
  {
    account_address: "String",
    auth_key: "String",
    is_auth_key_used: "Boolean",
    last_transaction_version: "bigint"
  },
  {
    primaryKey: ["account_address"],
    indexes: [["auth_key"]]
  }
)

export const publicKeyAuthKeys = table(
  "public_key_auth_keys",
  "The public keys behind multi-key and rotated authentication keys.",
  {
    account_public_key: "String?",
    auth_key: "String",
    is_public_key_used: "Boolean",
    last_transaction_version: "bigint",
    public_key: "String",
    public_key_type: "String",
    signature_type: "String"
  },
  {
    primaryKey: ["auth_key", "public_key", "public_key_type"],
    indexes: [["public_key"]]
  }
)
