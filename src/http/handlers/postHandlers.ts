import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { type ApiError, ApiErrors } from "../../domain/ApiError.js"
import { requestErrorToApiError } from "../../node/encode/EncodeError.js"
import { parseEncodeSubmissionRequest } from "../../node/encode/EncodeSubmissionRequest.js"
import { hasRequestShape } from "../../node/encode/requestShape.js"
import { parseJsonBody } from "../Body.js"
import { EncodeSubmissionRequestJson } from "../groups/TransactionsGroup.js"
import { ViewRequestJson } from "../groups/ViewGroup.js"
import { parseU64Query } from "../Params.js"
import { gasEstimateJson, u64Bcs, viewBcs } from "../Render.js"
import { asciiJsonReply, bcsReply, JSON_TYPE, jsonReply } from "../Reply.js"
import type { HandlerEnv, RouteSpec } from "./HandlerTypes.js"

export const VIEW_BCS_TYPES = ["application/x.service.view_function+bcs", "application/x.aptos.view_function+bcs"]

/**
 * Parses a JSON body and checks it against the request schema of the Api definition (the same
 * one the OpenAPI document and the client use); the node gets the parsed JSON.
 */
const jsonBody = (
  body: Uint8Array | undefined,
  check: (u: unknown) => Result.Result<unknown, Schema.SchemaError>,
  typeName: string
): Result.Result<unknown, ApiError> => {
  const parsed = parseJsonBody(body ?? new Uint8Array())
  if (!("ok" in parsed)) return Result.fail(parsed)
  const checked = check(parsed.value)
  if (Result.isFailure(checked))
    return Result.fail(
      ApiErrors.webFramework(
        400,
        `parse request payload error: ${checked.failure.message} (occurred while parsing "${typeName}")`
      )
    )
  return Result.succeed(parsed.value)
}

const decodeEncodeRequest = Schema.decodeResult(EncodeSubmissionRequestJson as Schema.Codec<unknown>)
/** The usual, well-formed body skips the Schema (same answer, see `hasRequestShape`); the Schema words any error. */
const checkEncode = (u: unknown): Result.Result<unknown, Schema.SchemaError> =>
  hasRequestShape(u, false) ? Result.succeed(u) : decodeEncodeRequest(u)
const checkView = Schema.decodeResult(ViewRequestJson as Schema.Codec<unknown>)

/** The signing message as a JSON string: `"0x…"`, hex-encoded natively (ASCII, see `asciiJsonReply`). */
const hexJson = (bytes: Uint8Array): string =>
  `"0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}"`

/**
 * `Accept: application/x-bcs` on encode_submission. The reference rejects it only after the body
 * parsed (400 `web_framework_error`) and verified (400 `invalid_input`), both without ledger
 * headers (aptos-api-behaviour §2.6 steps 1, 2, 5), so the same two checks run first here.
 */
const bcsEncodeRejection = (body: unknown): ApiError => {
  const parsed = parseEncodeSubmissionRequest(body)
  if (Result.isSuccess(parsed)) return ApiErrors.bcsNotSupported("BCS is not supported for encode submission")
  return requestErrorToApiError(parsed.failure)
}

/** `POST /v1/transactions/encode_submission`, `GET /v1/estimate_gas_price`, `POST /v1/view`. */
export const postHandlers = (env: HandlerEnv) => {
  const { node, headers } = env
  const encodeSubmission: RouteSpec = {
    bodyTypes: [JSON_TYPE],
    handler: (input) => {
      const body = jsonBody(input.body, checkEncode, "EncodeSubmissionRequest")
      if (Result.isFailure(body)) return Effect.fail(body.failure)
      if (input.bcs) return Effect.fail(bcsEncodeRejection(body.success))
      return Effect.map(node.encodeSubmission(body.success), ({ ledger, value }) =>
        asciiJsonReply(hexJson(value), ledger)
      )
    }
  }
  const estimateGasPrice: RouteSpec = {
    handler: (input) =>
      Effect.map(node.estimateGasPrice, ({ ledger, value }) =>
        input.bcs ? bcsReply(u64Bcs(value.market), ledger) : jsonReply(gasEstimateJson(value), ledger)
      )
  }
  const view: RouteSpec = {
    bodyTypes: [JSON_TYPE, ...VIEW_BCS_TYPES],
    handler: (input) => {
      const version = parseU64Query("ledger_version", input.query.get("ledger_version"))
      if (Result.isFailure(version)) return Effect.fail(version.failure)
      let request: Parameters<typeof node.view>[0]
      if (input.mediaType === JSON_TYPE) {
        const body = jsonBody(input.body, checkView, "ViewRequest")
        if (Result.isFailure(body)) return Effect.fail(body.failure)
        request = { _tag: "Json", body: body.success }
      } else {
        request = { _tag: "Bcs", body: input.body ?? new Uint8Array() }
      }
      return Effect.map(node.view(request, version.success), ({ ledger, value }) => {
        const extra = [headers.names.gasUsed, value.gasUsed.toString()]
        return input.bcs
          ? bcsReply(viewBcs(value.bcsValues), ledger, extra)
          : jsonReply(JSON.stringify(value.json), ledger, extra)
      })
    }
  }
  return {
    "transactions.encodeSubmission": encodeSubmission,
    "transactions.estimateGasPrice": estimateGasPrice,
    "view.view": view
  } as const
}
