import * as Schema from "effect/Schema"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { endpointDoc } from "../endpointDoc.js"
import { ErrorBody, postErrors } from "../ErrorBody.js"
import { RawStateValueRequestJson } from "../json/AccountJson.js"
import { ledgerVersionQuery } from "./queryFields.js"

/** BCS answers only: a JSON `Accept` is 403 `api_disabled`. */
const rawErrors = [...postErrors, ErrorBody.pipe(HttpApiSchema.status(403))] as const

/**
 * The reference's `Experimental` tag (hidden there): the raw state value of any state key, with
 * its metadata. What `aptos move sim`/`replay` and a movenode fork (`--fork-url`) read.
 */
export class ExperimentalGroup extends HttpApiGroup.make("experimental")
  .add(
    HttpApiEndpoint.post("rawStateValue", "/v1/experimental/state_values/raw", {
      query: ledgerVersionQuery,
      payload: RawStateValueRequestJson,
      headers: { accept: Schema.Literal("application/x-bcs") },
      success: Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "application/x-bcs" })),
      error: rawErrors
    }).annotateMerge(
      endpointDoc(
        "get_raw_state_value",
        "Get raw state value",
        "The value under a state key given as hex of its BCS (`StateKey`), at a ledger version, answered as BCS of the whole `StateValue` (bytes and storage metadata); BCS only (a JSON `Accept` is 403). Absent: 404 `state_value_not_found`; a key that is not a `StateKey`: 500 `internal_error`."
      )
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "Experimental" })) {}
