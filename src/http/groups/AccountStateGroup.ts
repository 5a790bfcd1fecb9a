import * as Schema from "effect/Schema"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { endpointDoc } from "../endpointDoc.js"
import { versionedErrors } from "../ErrorBody.js"
import { AccountDataJson, MoveResourceJson } from "../json/AccountJson.js"
import { TransactionJson, VersionedEventJson } from "../json/TransactionJson.js"
import { MoveModuleBytecodeJson } from "./AccountsGroup.js"
import { ledgerVersionQuery, pageQuery } from "./queryFields.js"

/**
 * An account and its state (local-chain.md §2.1): the account (sequence number, authentication
 * key), its resources and modules (paged with the `CURSOR` header), one resource by type, its
 * committed transactions by sequence number, and its event streams.
 */
export class AccountStateGroup extends HttpApiGroup.make("accountState")
  .add(
    HttpApiEndpoint.get("account", "/v1/accounts/:address", {
      params: { address: Schema.String },
      query: ledgerVersionQuery,
      success: AccountDataJson,
      error: versionedErrors
    }).annotateMerge(
      endpointDoc(
        "get_account",
        "Get account",
        "The account's sequence number and authentication key at a ledger version (the latest when none is given). An address without an `0x1::account::Account` resource is the stateless default (sequence number 0, the address as authentication key) when the framework's DEFAULT_ACCOUNT_RESOURCE feature is on, else 404 `account_not_found`."
      )
    ),
    HttpApiEndpoint.get("resources", "/v1/accounts/:address/resources", {
      params: { address: Schema.String },
      query: { ...ledgerVersionQuery, ...pageQuery },
      success: Schema.Array(MoveResourceJson),
      error: versionedErrors
    }).annotateMerge(
      endpointDoc(
        "get_account_resources",
        "Get account resources",
        "The account's resources (resource groups listed member by member) at a ledger version, in state-key order. `limit` bounds the page (resource groups count once); when more remain, the cursor header holds the `start` of the next page."
      )
    ),
    HttpApiEndpoint.get("resource", "/v1/accounts/:address/resource/:resource_type", {
      params: { address: Schema.String, resource_type: Schema.String },
      query: ledgerVersionQuery,
      success: MoveResourceJson,
      error: versionedErrors
    }).annotateMerge(
      endpointDoc(
        "get_account_resource",
        "Get account resource",
        "One resource of the account by its struct tag (percent-encoded; spaces between type arguments are allowed), a resource-group member included, at a ledger version. Absent: 404 `resource_not_found`."
      )
    ),
    HttpApiEndpoint.get("modules", "/v1/accounts/:address/modules", {
      params: { address: Schema.String },
      query: { ...ledgerVersionQuery, ...pageQuery },
      success: Schema.Array(MoveModuleBytecodeJson),
      error: versionedErrors
    }).annotateMerge(
      endpointDoc(
        "get_account_modules",
        "Get account modules",
        "The account's modules (bytecode and ABI) at a ledger version, in state-key order, paged as the resources are."
      )
    ),
    HttpApiEndpoint.get("transactions", "/v1/accounts/:address/transactions", {
      params: { address: Schema.String },
      query: pageQuery,
      success: Schema.Array(TransactionJson),
      error: versionedErrors
    }).annotateMerge(
      endpointDoc(
        "get_account_transactions",
        "Get account transactions",
        "The committed transactions the account sent with sequence numbers, from the sequence number `start` (without it, the account's `limit` most recent), ascending."
      )
    ),
    HttpApiEndpoint.get("eventsByCreationNumber", "/v1/accounts/:address/events/:creation_number", {
      params: { address: Schema.String, creation_number: Schema.String },
      query: pageQuery,
      success: Schema.Array(VersionedEventJson),
      error: versionedErrors
    }).annotateMerge(
      endpointDoc(
        "get_events_by_creation_number",
        "Get events by creation number",
        "The events of the account's event stream with this creation number, from the sequence number `start` (without it, the `limit` most recent), ascending, each with the version that emitted it."
      )
    ),
    HttpApiEndpoint.get("eventsByHandle", "/v1/accounts/:address/events/:event_handle/:field_name", {
      params: { address: Schema.String, event_handle: Schema.String, field_name: Schema.String },
      query: pageQuery,
      success: Schema.Array(VersionedEventJson),
      error: versionedErrors
    }).annotateMerge(
      endpointDoc(
        "get_events_by_event_handle",
        "Get events by event handle",
        "The events of the stream named by the `EventHandle` field `field_name` of the account's resource `event_handle`, paged as by creation number."
      )
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "Accounts" })) {}
