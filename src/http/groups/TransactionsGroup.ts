import * as Schema from "effect/Schema"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { commonErrors, postErrors } from "../ErrorBody.js"

export const GasEstimationJson = Schema.Struct({
  deprioritized_gas_estimate: Schema.Number,
  gas_estimate: Schema.Number,
  prioritized_gas_estimate: Schema.Number
}).annotate({ identifier: "GasEstimation" })

/** The request is converted by the node against the target function's ABI; here it is open JSON. */
export const EncodeSubmissionRequestJson = Schema.Struct({
  sender: Schema.String,
  sequence_number: Schema.String,
  max_gas_amount: Schema.String,
  gas_unit_price: Schema.String,
  expiration_timestamp_secs: Schema.String,
  payload: Schema.Record(Schema.String, Schema.Unknown),
  replay_protection_nonce: Schema.optional(Schema.String),
  secondary_signers: Schema.optional(Schema.Array(Schema.String))
}).annotate({ identifier: "EncodeSubmissionRequest" })

/** `POST /v1/transactions/encode_submission`, `GET /v1/estimate_gas_price`. */
export class TransactionsGroup extends HttpApiGroup.make("transactions")
  .add(
    HttpApiEndpoint.post("encodeSubmission", "/v1/transactions/encode_submission", {
      payload: EncodeSubmissionRequestJson,
      success: Schema.String,
      error: postErrors
    }),
    HttpApiEndpoint.get("estimateGasPrice", "/v1/estimate_gas_price", {
      success: GasEstimationJson,
      error: commonErrors
    })
  )
  .annotateMerge(OpenApi.annotations({ title: "Transactions" })) {}
