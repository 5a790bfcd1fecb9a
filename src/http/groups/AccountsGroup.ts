import * as Schema from "effect/Schema"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { endpointDoc } from "../endpointDoc.js"
import { versionedErrors } from "../ErrorBody.js"
import { ledgerVersionQuery } from "./queryFields.js"

export const ReplayProtectorJson = Schema.Union([
  Schema.Struct({ type: Schema.Literal("sequence_number"), sequence_number: Schema.String }),
  Schema.Struct({ type: Schema.Literal("nonce"), nonce: Schema.String })
]).annotate({ identifier: "ReplayProtector" })

export const TransactionSummaryJson = Schema.Struct({
  sender: Schema.String,
  version: Schema.String,
  transaction_hash: Schema.String,
  replay_protector: ReplayProtectorJson
}).annotate({ identifier: "TransactionSummary" })
export type TransactionSummaryJson = typeof TransactionSummaryJson.Type

const GenericTypeParam = Schema.Struct({ constraints: Schema.Array(Schema.String) })
const Field = Schema.Struct({ name: Schema.String, type: Schema.String })

export const MoveFunctionJson = Schema.Struct({
  name: Schema.String,
  visibility: Schema.String,
  is_entry: Schema.Boolean,
  is_view: Schema.Boolean,
  generic_type_params: Schema.Array(GenericTypeParam),
  params: Schema.Array(Schema.String),
  return: Schema.Array(Schema.String)
}).annotate({ identifier: "MoveFunction" })

export const MoveStructVariantJson = Schema.Struct({ name: Schema.String, fields: Schema.Array(Field) }).annotate({
  identifier: "MoveStructVariant"
})

/** All eight keys on every struct, in the reference's order (`variants` is `[]` unless `is_enum`). */
export const MoveStructJson = Schema.Struct({
  name: Schema.String,
  is_native: Schema.Boolean,
  is_event: Schema.Boolean,
  is_enum: Schema.Boolean,
  abilities: Schema.Array(Schema.String),
  generic_type_params: Schema.Array(GenericTypeParam),
  fields: Schema.Array(Field),
  variants: Schema.Array(MoveStructVariantJson)
}).annotate({ identifier: "MoveStruct" })

export const MoveModuleJson = Schema.Struct({
  address: Schema.String,
  name: Schema.String,
  friends: Schema.Array(Schema.String),
  exposed_functions: Schema.Array(MoveFunctionJson),
  structs: Schema.Array(MoveStructJson)
}).annotate({ identifier: "MoveModule" })

export const MoveModuleBytecodeJson = Schema.Struct({
  bytecode: Schema.String,
  abi: Schema.NullOr(MoveModuleJson)
}).annotate({ identifier: "MoveModuleBytecode" })

/**
 * The balance is a bare JSON number with all its digits (u64 can exceed 2^53), so the client must
 * not go through `JSON.parse`: the body is declared as JSON text and decoded from its digits.
 */
export const BalanceJson = Schema.BigIntFromString.pipe(HttpApiSchema.asText({ contentType: "application/json" }))

/** The account endpoints: transaction summaries, a module, a balance. */
export class AccountsGroup extends HttpApiGroup.make("accounts")
  .add(
    HttpApiEndpoint.get("transactionSummaries", "/v1/accounts/:address/transaction_summaries", {
      params: { address: Schema.String },
      query: {
        start_version: Schema.optional(Schema.String),
        end_version: Schema.optional(Schema.String),
        limit: Schema.optional(Schema.String)
      },
      success: Schema.Array(TransactionSummaryJson),
      error: versionedErrors
    }).annotateMerge(
      endpointDoc(
        "get_account_transaction_summaries",
        "Get account transaction summaries",
        "Summaries (sender, version, hash, replay protector) of the committed transactions the account sent, ascending by version, between `start_version` and `end_version`. When the page is full, the cursor header holds the `start_version` of the next page."
      )
    ),
    HttpApiEndpoint.get("module", "/v1/accounts/:address/module/:module_name", {
      params: { address: Schema.String, module_name: Schema.String },
      query: ledgerVersionQuery,
      success: MoveModuleBytecodeJson,
      error: versionedErrors
    }).annotateMerge(
      endpointDoc(
        "get_account_module",
        "Get account module",
        "One module of the account, its bytecode and ABI, at a ledger version (the latest when none is given). A version older than the node keeps answers 410."
      )
    ),
    HttpApiEndpoint.get("balance", "/v1/accounts/:address/balance/:asset_type", {
      params: { address: Schema.String, asset_type: Schema.String },
      query: ledgerVersionQuery,
      success: BalanceJson,
      error: versionedErrors
    }).annotateMerge(
      endpointDoc(
        "get_account_balance",
        "Get account balance",
        "The account's balance of a coin type (its coin store and the paired fungible asset's primary store) or of a fungible asset (by metadata address, its primary store), at a ledger version (the latest when none is given). A version older than the node keeps answers 410."
      )
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "Accounts" })) {}
