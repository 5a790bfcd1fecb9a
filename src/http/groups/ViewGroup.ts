import * as Schema from "effect/Schema"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { endpointDoc } from "../endpointDoc.js"
import { viewErrors } from "../ErrorBody.js"
import { ledgerVersionQuery } from "./queryFields.js"

export const ViewRequestJson = Schema.Struct({
  function: Schema.String,
  type_arguments: Schema.Array(Schema.String),
  arguments: Schema.Array(Schema.Unknown)
}).annotate({ identifier: "ViewRequest" })

/** `POST /v1/view`. JSON bodies here; BCS bodies (`ViewFunction`) are accepted by the server too. */
export class ViewGroup extends HttpApiGroup.make("view")
  .add(
    HttpApiEndpoint.post("view", "/v1/view", {
      query: ledgerVersionQuery,
      payload: ViewRequestJson,
      success: Schema.Array(Schema.Unknown),
      error: viewErrors
    }).annotateMerge(
      endpointDoc(
        "view",
        "Execute view function of a module",
        "Runs a function marked #[view] against the state at a ledger version (the latest when none is given) and returns its values as JSON. The gas it used is in the gas-used header."
      )
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "View" })) {}
