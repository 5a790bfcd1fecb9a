import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import { type ApiError, ApiError as ApiErrorClass } from "../../domain/ApiError.js"
import type { LedgerInfo } from "../../domain/LedgerInfo.js"
import { Ledger } from "../../ledger/Ledger.js"
import { MoveVm } from "../../move/vm/MoveVm.js"
import { stateAtLedgerVersion } from "../LedgerVersion.js"
import type { ViewAnswer, ViewRequest } from "../Views.js"
import type { WithLedger } from "../WithLedger.js"
import { NodeConfig, type NodeConfigShape } from "../NodeConfig.js"
import { Views } from "../Views.js"
import { makeViewExecutor, type ViewError, type ViewLimits } from "./executeView.js"

/** A view failure as the API error, with the ledger info the request was answered at. */
export const viewApiError = (f: ViewError, ledger: LedgerInfo): ApiError =>
  new ApiErrorClass({
    status: f.status,
    code: f.code,
    message: f.message,
    vmErrorCode: f.vmErrorCode,
    ledger: f.withoutLedger === true ? undefined : ledger
  })

/** The limits every view runs under, from the node configuration. */
export const viewLimitsOf = (config: NodeConfigShape): ViewLimits => ({
  gasBudget: config.viewGasBudget,
  deadlineMs: config.viewDeadlineMs,
  filter: config.viewFilter
})

/**
 * Views on the calling thread: the `ledger_version` rules, then the executor over the state at the
 * chosen version. One `MoveVm` (and so one module cache), created on the first view.
 */
export const inThreadViews = (ledger: Ledger["Service"], limits: ViewLimits) => {
  let execute: ReturnType<typeof makeViewExecutor> | undefined
  return (request: ViewRequest, ledgerVersion: bigint | undefined): Effect.Effect<WithLedger<ViewAnswer>, ApiError> =>
    Effect.flatMap(stateAtLedgerVersion(ledger, ledgerVersion), ({ ledger: info, state, version }) => {
      execute ??= makeViewExecutor(new MoveVm(), limits)
      const answer = execute(request, state, version)
      return Result.isSuccess(answer)
        ? Effect.succeed({ ledger: info, value: answer.success })
        : Effect.fail(viewApiError(answer.failure, info))
    })
}

/**
 * `POST /view` over the Move VM (contract item 6), on the calling thread. Each call reads the state
 * at the requested version, runs in a throw-away session under `NodeConfig.viewGasBudget` and
 * answers with BCS values, their JSON and the gas used. Works over any `Ledger`;
 * `ViewsWorkerLayer` runs the same executor on worker threads instead.
 */
export const ViewsVmLayer = Layer.effect(
  Views,
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const config = yield* NodeConfig
    return Views.of({ view: inThreadViews(ledger, viewLimitsOf(config)) })
  })
)
