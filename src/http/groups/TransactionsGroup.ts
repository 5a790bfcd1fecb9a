import * as Schema from "effect/Schema"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { endpointDoc } from "../endpointDoc.js"
import { commonErrors, postErrors } from "../ErrorBody.js"
import { U64Json } from "../IntegerSchemas.js"
import { userTransactionRequestFields } from "../json/TransactionJson.js"

/** The reference's `GasEstimation`: only `gas_estimate` is required (the node always sends all three). */
export const GasEstimationJson = Schema.Struct({
  deprioritized_gas_estimate: Schema.optionalKey(U64Json),
  gas_estimate: U64Json,
  prioritized_gas_estimate: Schema.optionalKey(U64Json)
}).annotate({ identifier: "GasEstimation" })

/** The request is converted by the node against the target function's ABI; here it is open JSON. */
export const EncodeSubmissionRequestJson = Schema.Struct({
  ...userTransactionRequestFields,
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
    }).annotateMerge(
      endpointDoc(
        "encode_submission",
        "Encode submission",
        "The signing message of a transaction given as JSON (hex): for clients without BCS support. Sign its bytes and submit the transaction with that signature. SDKs with BCS support do not need it."
      )
    ),
    HttpApiEndpoint.get("estimateGasPrice", "/v1/estimate_gas_price", {
      success: GasEstimationJson,
      error: commonErrors
    }).annotateMerge(
      endpointDoc(
        "estimate_gas_price",
        "Estimate gas price",
        "Gas unit prices likely to get a transaction into a block soon, from recent blocks: de-prioritized, regular and prioritized. When blocks are not full, the estimate is the minimum gas unit price."
      )
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "Transactions" })) {}
