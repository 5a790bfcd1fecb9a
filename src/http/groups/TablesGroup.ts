import * as Schema from "effect/Schema"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { endpointDoc } from "../endpointDoc.js"
import { ErrorBody, postErrors } from "../ErrorBody.js"
import { RawTableItemRequestJson, TableItemRequestJson } from "../json/AccountJson.js"
import { ledgerVersionQuery } from "./queryFields.js"

/** `raw_item` answers BCS only: a JSON `Accept` is 403 `api_disabled`. */
const rawItemErrors = [...postErrors, ErrorBody.pipe(HttpApiSchema.status(403))] as const

/** Table items by key: converted from JSON by its type (`item`), or as raw BCS (`raw_item`, BCS answers only). */
export class TablesGroup extends HttpApiGroup.make("tables")
  .add(
    HttpApiEndpoint.post("item", "/v1/tables/:table_handle/item", {
      params: { table_handle: Schema.String },
      query: ledgerVersionQuery,
      payload: TableItemRequestJson,
      success: Schema.Unknown,
      error: postErrors
    }).annotateMerge(
      endpointDoc(
        "get_table_item",
        "Get table item",
        "The item of a table under a key given as Move JSON of `key_type`, its value rendered as `value_type`, at a ledger version. Absent: 404 `table_item_not_found`."
      )
    ),
    HttpApiEndpoint.post("rawItem", "/v1/tables/:table_handle/raw_item", {
      params: { table_handle: Schema.String },
      query: ledgerVersionQuery,
      payload: RawTableItemRequestJson,
      // The answer is BCS only: without this `Accept` it is 403 (stated here so the typed client sends it).
      headers: { accept: Schema.Literal("application/x-bcs") },
      success: Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "application/x-bcs" })),
      error: rawItemErrors
    }).annotateMerge(
      endpointDoc(
        "get_raw_table_item",
        "Get raw table item",
        "The item of a table under a key given as its BCS bytes (hex), answered as the stored BCS bytes only (a JSON `Accept` is 403)."
      )
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "Tables" })) {}
