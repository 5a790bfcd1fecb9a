import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { type ApiError, ApiError as ApiErrorClass, ApiErrors } from "../../domain/ApiError.js"
import { parseJsonBody } from "../Body.js"
import { RawTableItemRequestJson, TableItemRequestJson } from "../json/AccountJson.js"
import { parseAddressParam, parseU64Query } from "../Params.js"
import { parseHexBody } from "../ReadParams.js"
import { bcsReply, JSON_TYPE, jsonReply } from "../Reply.js"
import type { HandlerEnv, RouteSpec } from "./HandlerTypes.js"

const checkItem = Schema.decodeUnknownResult(TableItemRequestJson)
const checkRaw = Schema.decodeUnknownResult(RawTableItemRequestJson)

/** A JSON body checked against its request Schema, in the reference's framework wording. */
const body = <A>(
  bytes: Uint8Array | undefined,
  check: (u: unknown) => Result.Result<A, Schema.SchemaError>,
  typeName: string
): Result.Result<A, ApiError> => {
  const parsed = parseJsonBody(bytes ?? new Uint8Array())
  if (!("ok" in parsed)) return Result.fail(parsed)
  return Result.mapError(check(parsed.value), (e) =>
    ApiErrors.webFramework(400, `parse request payload error: ${e.message} (occurred while parsing "${typeName}")`)
  )
}

/** `raw_item` serves BCS only: a JSON answer is refused as the reference's `api_forbidden` (no ledger headers). */
const rawItemJsonRefused = new ApiErrorClass({
  status: 403,
  code: "api_disabled",
  message: "Get raw table item is not allowed. Only BCS is supported as an AcceptType."
})

/** `POST /v1/tables/{table_handle}/item` and `/raw_item`. */
export const tablesHandlers = (env: HandlerEnv) => {
  const tables = env.node.reads.tables
  const item: RouteSpec = {
    bodyTypes: [JSON_TYPE],
    handler: (input) => {
      const handle = parseAddressParam("table_handle", input.params.table_handle!)
      if (Result.isFailure(handle)) return Effect.fail(handle.failure)
      const version = parseU64Query("ledger_version", input.query.get("ledger_version"))
      if (Result.isFailure(version)) return Effect.fail(version.failure)
      const request = body(input.body, checkItem, "TableItemRequest")
      if (Result.isFailure(request)) return Effect.fail(request.failure)
      const { key_type, value_type, key } = request.success
      return Effect.map(
        tables.item(handle.success, { keyType: key_type, valueType: value_type, key }, version.success),
        ({ ledger, value }) => (input.bcs ? bcsReply(value.bcs, ledger) : jsonReply(value.json, ledger))
      )
    }
  }
  const rawItem: RouteSpec = {
    bodyTypes: [JSON_TYPE],
    handler: (input) => {
      if (!input.bcs) return Effect.fail(rawItemJsonRefused)
      const handle = parseAddressParam("table_handle", input.params.table_handle!)
      if (Result.isFailure(handle)) return Effect.fail(handle.failure)
      const version = parseU64Query("ledger_version", input.query.get("ledger_version"))
      if (Result.isFailure(version)) return Effect.fail(version.failure)
      const request = body(input.body, checkRaw, "RawTableItemRequest")
      if (Result.isFailure(request)) return Effect.fail(request.failure)
      const key = parseHexBody("key", request.success.key)
      if (Result.isFailure(key)) return Effect.fail(key.failure)
      return Effect.map(tables.rawItem(handle.success, key.success, version.success), ({ ledger, value }) =>
        bcsReply(value, ledger)
      )
    }
  }
  return { "tables.item": item, "tables.rawItem": rawItem } as const
}
