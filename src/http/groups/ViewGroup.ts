import * as Schema from "effect/Schema"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { viewErrors } from "../ErrorBody.js"

export const ViewRequestJson = Schema.Struct({
  function: Schema.String,
  type_arguments: Schema.Array(Schema.String),
  arguments: Schema.Array(Schema.Unknown)
}).annotate({ identifier: "ViewRequest" })

/** `POST /v1/view`. JSON bodies here; BCS bodies (`ViewFunction`) are accepted by the server too. */
export class ViewGroup extends HttpApiGroup.make("view")
  .add(
    HttpApiEndpoint.post("view", "/v1/view", {
      query: { ledger_version: Schema.optional(Schema.String) },
      payload: ViewRequestJson,
      success: Schema.Array(Schema.Unknown),
      error: viewErrors
    })
  )
  .annotateMerge(OpenApi.annotations({ title: "View" })) {}
