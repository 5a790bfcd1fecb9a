import * as Schema from "effect/Schema"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { endpointDoc } from "../endpointDoc.js"
import { ErrorBody, postErrors, versionedErrors } from "../ErrorBody.js"
import { PendingTransactionJson, TransactionJson, userTransactionRequestFields } from "../json/TransactionJson.js"

/** The JSON `SubmitTransactionRequest`: the request fields and the signature (converted by the node). */
export const SubmitTransactionRequestJson = Schema.Struct({
  ...userTransactionRequestFields,
  signature: Schema.Record(Schema.String, Schema.Unknown),
  replay_protection_nonce: Schema.optional(Schema.NullOr(Schema.String))
}).annotate({ identifier: "SubmitTransactionRequest" })

/** `TransactionsBatchSubmissionResult`: the refused transactions, by their index in the batch. */
export const BatchSubmissionResultJson = Schema.Struct({
  transaction_failures: Schema.Array(Schema.Struct({ error: ErrorBody, transaction_index: Schema.Number }))
}).annotate({ identifier: "TransactionsBatchSubmissionResult" })

const mempoolFull = ErrorBody.pipe(HttpApiSchema.status(507))

/**
 * Submission and waiting (the local chain's; a read-only `movenode run` answers the POSTs with 403
 * `api_disabled`): `POST /v1/transactions` (BCS `application/x.aptos.signed_transaction+bcs` or
 * this JSON), `POST /v1/transactions/batch`, `GET /v1/transactions/by_hash/{hash}` (pending first,
 * then committed) and `GET /v1/transactions/wait_by_hash/{hash}` (a bounded long poll).
 */
export class SubmissionsGroup extends HttpApiGroup.make("submissions")
  .add(
    HttpApiEndpoint.post("submit", "/v1/transactions", {
      payload: SubmitTransactionRequestJson,
      success: PendingTransactionJson.pipe(HttpApiSchema.status(202)),
      error: [...postErrors, mempoolFull]
    }).annotateMerge(
      endpointDoc(
        "submit_transaction",
        "Submit transaction",
        "Validates a signed transaction (signature and prologue on the latest state) and puts it in the mempool: 202 with the pending transaction. A sequence number ahead of the account's is kept until the ones before it arrive. BCS bodies (application/x.aptos.signed_transaction+bcs) are accepted too."
      )
    ),
    HttpApiEndpoint.post("submitBatch", "/v1/transactions/batch", {
      payload: Schema.Array(SubmitTransactionRequestJson),
      success: [
        BatchSubmissionResultJson.pipe(HttpApiSchema.status(202)),
        BatchSubmissionResultJson.pipe(HttpApiSchema.status(206))
      ],
      error: [...postErrors, mempoolFull]
    }).annotateMerge(
      endpointDoc(
        "submit_batch_transactions",
        "Submit batch transactions",
        "Submits up to 10 transactions in order: 202 when all were accepted, 206 listing the refused ones by index."
      )
    ),
    HttpApiEndpoint.get("byHash", "/v1/transactions/by_hash/:txn_hash", {
      params: { txn_hash: Schema.String },
      success: TransactionJson,
      error: versionedErrors
    }).annotateMerge(
      endpointDoc(
        "get_transaction_by_hash",
        "Get transaction by hash",
        "A transaction by its hash: the pending transaction while the mempool holds it, else the committed one; 404 `transaction_not_found` otherwise."
      )
    ),
    HttpApiEndpoint.get("waitByHash", "/v1/transactions/wait_by_hash/:txn_hash", {
      params: { txn_hash: Schema.String },
      success: TransactionJson,
      error: versionedErrors
    }).annotateMerge(
      endpointDoc(
        "wait_transaction_by_hash",
        "Wait for transaction by hash",
        "Like get_transaction_by_hash, but while the transaction is pending waits (up to 1 s) for it to be committed."
      )
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "Transactions" })) {}
