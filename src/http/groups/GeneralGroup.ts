import * as Schema from "effect/Schema"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { commonErrors } from "../ErrorBody.js"
import { LedgerInfoJson } from "../LedgerInfoJson.js"

export const HealthyJson = Schema.Struct({ message: Schema.String }).annotate({ identifier: "HealthCheckSuccess" })

/** `GET /v1`, `GET /v1/-/healthy`, `GET /v1/spec.json`. */
export class GeneralGroup extends HttpApiGroup.make("general")
  .add(
    HttpApiEndpoint.get("ledgerInfo", "/v1", { success: LedgerInfoJson, error: commonErrors }),
    HttpApiEndpoint.get("healthy", "/v1/-/healthy", { success: HealthyJson, error: commonErrors }),
    HttpApiEndpoint.get("spec", "/v1/spec.json", { success: Schema.Unknown, error: commonErrors })
  )
  .annotateMerge(OpenApi.annotations({ title: "General", description: "Ledger info, health, this document" })) {}
