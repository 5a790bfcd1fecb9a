import * as Effect from "effect/Effect"
import { ApiError } from "../../domain/ApiError.js"
import type { LedgerInfo } from "../../domain/LedgerInfo.js"
import { ledgerInfoToJson } from "../LedgerInfoJson.js"
import { jsonReply } from "../Reply.js"
import type { HandlerEnv, RouteSpec } from "./HandlerTypes.js"

const HEALTHY = `{"message":"movenode:ok"}`

/** `GET /v1`, `GET /v1/-/healthy`, `GET /v1/spec.json`. */
export const generalHandlers = (env: HandlerEnv) => {
  let lastInfo: LedgerInfo | undefined
  let lastJson = ""
  const infoJson = (info: LedgerInfo) => {
    if (info !== lastInfo) {
      lastJson = JSON.stringify(ledgerInfoToJson(info, env.config.gitHash))
      lastInfo = info
    }
    return lastJson
  }
  const ledgerInfo: RouteSpec = {
    handler: () => Effect.map(env.node.ledgerInfo, (info) => jsonReply(infoJson(info), info))
  }
  const healthy: RouteSpec = {
    handler: () =>
      env.node.ledgerInfo.pipe(
        Effect.map((info) => jsonReply(HEALTHY, info)),
        Effect.mapError(
          (e) => new ApiError({ status: 503, code: "health_check_failed", message: `Health check failed: ${e.message}` })
        )
      )
  }
  // The document does not depend on the ledger; the headers are added when the ledger answers.
  const spec: RouteSpec = {
    handler: () =>
      env.node.ledgerInfo.pipe(
        Effect.map((info) => jsonReply(env.specJson(), info)),
        Effect.orElseSucceed(() => jsonReply(env.specJson(), undefined))
      )
  }
  return { "general.ledgerInfo": ledgerInfo, "general.healthy": healthy, "general.spec": spec } as const
}
