import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { ApiError, ApiErrors } from "../../domain/ApiError.js"
import { parseJsonBody } from "../Body.js"
import { RawStateValueRequestJson } from "../json/AccountJson.js"
import { parseU64Query } from "../Params.js"
import { parseHexBody } from "../ReadParams.js"
import { bcsReply, JSON_TYPE } from "../Reply.js"
import type { HandlerEnv, RouteSpec } from "./HandlerTypes.js"

const checkRequest = Schema.decodeUnknownResult(RawStateValueRequestJson)

/** A JSON answer is refused as the reference's `api_forbidden` (no ledger headers). */
const jsonRefused = new ApiError({
  status: 403,
  code: "api_disabled",
  message: "Get raw state value is not allowed. Only BCS is supported as an AcceptType."
})

/** `POST /v1/experimental/state_values/raw`. */
export const experimentalHandlers = (env: HandlerEnv) => {
  const stateValues = env.node.reads.stateValues
  const rawStateValue: RouteSpec = {
    bodyTypes: [JSON_TYPE],
    handler: (input) => {
      if (!input.bcs) return Effect.fail(jsonRefused)
      const version = parseU64Query("ledger_version", input.query.get("ledger_version"))
      if (Result.isFailure(version)) return Effect.fail(version.failure)
      const parsed = parseJsonBody(input.body ?? new Uint8Array())
      if (!("ok" in parsed)) return Effect.fail(parsed)
      const request = checkRequest(parsed.value)
      if (Result.isFailure(request))
        return Effect.fail(
          ApiErrors.webFramework(
            400,
            `parse request payload error: ${request.failure.message} (occurred while parsing "RawStateValueRequest")`
          )
        )
      const key = parseHexBody("key", request.success.key)
      if (Result.isFailure(key)) return Effect.fail(key.failure)
      return Effect.map(stateValues.raw(key.success, version.success), ({ ledger, value }) => bcsReply(value, ledger))
    }
  }
  return { "experimental.rawStateValue": rawStateValue } as const
}
