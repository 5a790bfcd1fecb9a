import * as Schema from "effect/Schema"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { endpointDoc } from "../endpointDoc.js"
import { commonErrors } from "../ErrorBody.js"
import { LedgerInfoJson } from "../LedgerInfoJson.js"

export const HealthyJson = Schema.Struct({ message: Schema.String }).annotate({ identifier: "HealthCheckSuccess" })

/** `GET /v1`, `GET /v1/-/healthy`, `GET /v1/spec.json`. */
export class GeneralGroup extends HttpApiGroup.make("general")
  .add(
    HttpApiEndpoint.get("ledgerInfo", "/v1", { success: LedgerInfoJson, error: commonErrors }).annotateMerge(
      endpointDoc(
        "get_ledger_info",
        "Get ledger info",
        "The latest ledger information: chain id, epoch, ledger version and timestamp, the oldest version and block height still kept, the node role."
      )
    ),
    HttpApiEndpoint.get("healthy", "/v1/-/healthy", { success: HealthyJson, error: commonErrors }).annotateMerge(
      endpointDoc("healthy", "Check basic node health", "Answers 200 while the node serves requests.")
    ),
    HttpApiEndpoint.get("spec", "/v1/spec.json", { success: Schema.Unknown, error: commonErrors }).annotateMerge(
      endpointDoc("spec", "Get the OpenAPI document", "This document: every endpoint the node serves.")
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "General", description: "Ledger info, health, this document" })) {}
