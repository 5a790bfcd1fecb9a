import * as Schema from "effect/Schema"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { endpointDoc } from "../endpointDoc.js"
import { versionedErrors } from "../ErrorBody.js"
import { TransactionJson } from "../json/TransactionJson.js"
import { pageQuery } from "./queryFields.js"

/** Committed transactions: the ledger's list (the latest page without `start`), one by version. */
export class TransactionReadsGroup extends HttpApiGroup.make("transactionReads")
  .add(
    HttpApiEndpoint.get("list", "/v1/transactions", {
      query: pageQuery,
      success: Schema.Array(TransactionJson),
      error: versionedErrors
    }).annotateMerge(
      endpointDoc(
        "get_transactions",
        "Get transactions",
        "Committed transactions in ledger order from the version `start` (without it, the latest page), at most `limit`."
      )
    ),
    HttpApiEndpoint.get("byVersion", "/v1/transactions/by_version/:txn_version", {
      params: { txn_version: Schema.String },
      success: TransactionJson,
      error: versionedErrors
    }).annotateMerge(
      endpointDoc(
        "get_transaction_by_version",
        "Get transaction by version",
        "The committed transaction at a version, with its outcome, changes and events. Above the latest version: 404 `transaction_not_found`; pruned: 410."
      )
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "Transactions" })) {}
