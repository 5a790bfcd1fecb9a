import * as Schema from "effect/Schema"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { endpointDoc } from "../endpointDoc.js"
import { versionedErrors } from "../ErrorBody.js"
import { BlockJson } from "../json/TransactionJson.js"

const query = { with_transactions: Schema.optional(Schema.String) }

/** A block by height or by a version it holds, with its transactions when `with_transactions=true`. */
export class BlocksGroup extends HttpApiGroup.make("blocks")
  .add(
    HttpApiEndpoint.get("byHeight", "/v1/blocks/by_height/:block_height", {
      params: { block_height: Schema.String },
      query,
      success: BlockJson,
      error: versionedErrors
    }).annotateMerge(
      endpointDoc(
        "get_block_by_height",
        "Get blocks by height",
        'A block by its height: its hash, timestamp and version range, and with `with_transactions=true` its transactions (at most a transactions page; `"transactions": null` otherwise).'
      )
    ),
    HttpApiEndpoint.get("byVersion", "/v1/blocks/by_version/:version", {
      params: { version: Schema.String },
      query,
      success: BlockJson,
      error: versionedErrors
    }).annotateMerge(
      endpointDoc("get_block_by_version", "Get blocks by version", "The block holding a version, as by height.")
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "Blocks" })) {}
