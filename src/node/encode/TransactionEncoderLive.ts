import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import { ApiErrors } from "../../domain/ApiError.js"
import { Ledger } from "../../ledger/Ledger.js"
import { cachedStateAtLedgerVersion } from "../LedgerVersion.js"
import { NodeConfig } from "../NodeConfig.js"
import { TransactionEncoder } from "../TransactionEncoder.js"
import { buildSigningMessage } from "./buildSigningMessage.js"
import { requestErrorToApiError } from "./EncodeError.js"
import { parseEncodeSubmissionRequest } from "./EncodeSubmissionRequest.js"
import { makeSnapshotModules, moduleCache, stateModuleSource } from "./stateModuleSource.js"

/**
 * The `TransactionEncoder` layer. The reference's
 * order of checks (aptos-api-behaviour §2.6): the body's shape and fields (400
 * `web_framework_error`), then `verify` (400 `invalid_input`), both before the ledger is read and so
 * without ledger headers; then conversion against the latest state's modules (400 `invalid_input`
 * with headers); success carries the ledger info too. The `Accept: application/x-bcs` rejection
 * (400 `bcs_not_supported`) is the HTTP layer's, as it owns content negotiation.
 */
export const TransactionEncoderLive = Layer.effect(
  TransactionEncoder,
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const config = yield* NodeConfig
    const modules = moduleCache(config.moduleAbiCacheSize)
    const snapshot = makeSnapshotModules()

    // The latest state is reopened only when the ledger head moves (a state at a version never changes).
    const latestState = cachedStateAtLedgerVersion(ledger)

    // Plain combinators rather than Effect.gen: this runs once per request and a generator costs more.
    const encodeSubmission = (body: unknown) =>
      Effect.suspend(() => {
        const parsed = parseEncodeSubmissionRequest(body)
        if (Result.isFailure(parsed)) return Effect.fail(requestErrorToApiError(parsed.failure))
        const request = parsed.success
        return Effect.flatMap(latestState(undefined), ({ ledger: info, state }) => {
          const message = buildSigningMessage(request, stateModuleSource(state, modules, snapshot), info.chainId)
          return Result.isSuccess(message)
            ? Effect.succeed({ ledger: info, value: message.success })
            : Effect.fail(ApiErrors.badRequest(`The given transaction is invalid: ${message.failure.message}`, info))
        })
      })

    return TransactionEncoder.of({ encodeSubmission })
  })
)
