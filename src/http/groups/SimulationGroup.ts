import * as Schema from "effect/Schema"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { endpointDoc } from "../endpointDoc.js"
import { postErrors } from "../ErrorBody.js"
import { SubmitTransactionRequestJson } from "./SubmissionsGroup.js"

/** The body's media type: a BCS `SignedTransaction`, as the SDK sends it. */
export const SIGNED_TRANSACTION_BCS = "application/x.aptos.signed_transaction+bcs"

/** `POST /v1/transactions/simulate`. */
export class SimulationGroup extends HttpApiGroup.make("simulation")
  .add(
    HttpApiEndpoint.post("simulate", "/v1/transactions/simulate", {
      query: {
        estimate_max_gas_amount: Schema.optional(Schema.String),
        estimate_gas_unit_price: Schema.optional(Schema.String),
        estimate_prioritized_gas_unit_price: Schema.optional(Schema.String)
      },
      // BCS (what every SDK sends) or the JSON SubmitTransactionRequest, as the reference accepts.
      payload: [
        Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: SIGNED_TRANSACTION_BCS })),
        SubmitTransactionRequestJson
      ],
      success: Schema.Array(Schema.Unknown),
      error: postErrors
    }).annotateMerge(
      endpointDoc(
        "simulate_transaction",
        "Simulate transaction",
        "Executes a signed transaction (BCS, or the JSON SubmitTransactionRequest of POST /transactions) whose signature is invalid (a valid one is refused) on the latest state without committing it, and returns it as a user_transaction with its changes, events, gas used and vm_status. With estimate_max_gas_amount / estimate_gas_unit_price / estimate_prioritized_gas_unit_price, the node's estimates replace the transaction's max gas and price."
      )
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "Transactions" })) {}
