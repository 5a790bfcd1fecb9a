import * as Effect from "effect/Effect"
import { ApiError, ApiErrors } from "../../domain/ApiError.js"
import { boundedPrefix } from "../../domain/boundedText.js"
import type { LedgerInfo } from "../../domain/LedgerInfo.js"
import { ledgerInfoToJson } from "../LedgerInfoJson.js"
import { jsonReply } from "../Reply.js"
import type { HandlerEnv, RouteSpec } from "./HandlerTypes.js"

const HEALTHY = `{"message":"movenode:ok"}`

/** The reference's `duration_secs` (a u32); anything else is 400 as its query parsing answers. */
const parseDurationSecs = (s: string): number | ApiError =>
  /^[0-9]{1,10}$/.test(s) && Number(s) <= 0xffff_ffff
    ? Number(s)
    : ApiErrors.webFramework(
        400,
        `failed to parse query \`duration_secs\`: failed to parse "integer(u32)": ${JSON.stringify(boundedPrefix(s, 100))}`
      )

/** Rust's `Debug` of a `Duration` since the epoch, as the reference's message prints the ledger timestamp. */
const durationDebug = (usec: bigint): string => {
  const secs = usec / 1_000_000n
  const micros = usec % 1_000_000n
  return micros === 0n ? `${secs}s` : `${secs}.${micros.toString().padStart(6, "0").replace(/0+$/, "")}s`
}

/** `GET /v1`, `GET /v1/-/healthy`, `GET /v1/spec.json`. */
export const generalHandlers = (env: HandlerEnv) => {
  let lastInfo: LedgerInfo | undefined
  let lastJson = ""
  const replica = env.config.replica
  const infoJson = (info: LedgerInfo) => {
    // A replica's answer carries its follow state, which changes without the ledger changing.
    if (replica !== undefined)
      return JSON.stringify({ ...ledgerInfoToJson(info, env.config.gitHash), follow: replica.status() })
    if (info !== lastInfo) {
      lastJson = JSON.stringify(ledgerInfoToJson(info, env.config.gitHash))
      lastInfo = info
    }
    return lastJson
  }
  const ledgerInfo: RouteSpec = {
    handler: () => Effect.map(env.node.ledgerInfo, (info) => jsonReply(infoJson(info), info))
  }
  // With `duration_secs`, 503 when the latest ledger timestamp is older than now − N s (the
  // reference's check, what load balancers probe). A replica is also healthy while it has held
  // everything its source reported within those N s: an idle source's chain does not age it.
  const healthy: RouteSpec = {
    handler: (input) => {
      const raw = input.query.get("duration_secs")
      const duration = raw === undefined ? undefined : parseDurationSecs(raw)
      if (duration instanceof ApiError) return Effect.fail(duration)
      return env.node.ledgerInfo.pipe(
        Effect.mapError(
          (e) =>
            new ApiError({ status: 503, code: "health_check_failed", message: `Health check failed: ${e.message}` })
        ),
        Effect.flatMap((info) => {
          if (duration === undefined) return Effect.succeed(jsonReply(HEALTHY, info))
          const nowUsec = BigInt(Date.now()) * 1000n
          const fresh = info.ledgerTimestampUsec >= nowUsec - BigInt(duration) * 1_000_000n
          if (replica === undefined ? fresh : fresh || replica.syncedWithin(duration * 1000))
            return Effect.succeed(jsonReply(HEALTHY, info))
          return Effect.fail(
            new ApiError({
              status: 503,
              code: "health_check_failed",
              message:
                replica === undefined
                  ? `The latest ledger info timestamp is ${durationDebug(info.ledgerTimestampUsec)}, which is beyond the allowed skew (${duration}s).`
                  : `The latest ledger info timestamp is ${durationDebug(info.ledgerTimestampUsec)}, which is beyond the allowed skew (${duration}s), and this replica has not held all its source reported within it.`,
              ledger: info
            })
          )
        })
      )
    }
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
