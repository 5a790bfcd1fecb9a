import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import { ApiError } from "../../domain/ApiError.js"
import type { LedgerInfo } from "../../domain/LedgerInfo.js"
import { MoveVm } from "../../move/vm/MoveVm.js"
import { Ledger } from "../../ledger/Ledger.js"
import { stateAtLedgerVersion } from "../LedgerVersion.js"
import type { ViewRequest } from "../Node.js"
import { NodeConfig } from "../NodeConfig.js"
import { Views } from "../Views.js"
import { makeViewExecutor, type ViewError } from "./executeView.js"

/** A view failure as the API error, with the ledger info the request was answered at. */
export const viewApiError = (f: ViewError, ledger: LedgerInfo): ApiError =>
  new ApiError({
    status: f.status,
    code: f.code,
    message: f.message,
    vmErrorCode: f.vmErrorCode,
    ledger: f.withoutLedger === true ? undefined : ledger
  })

/**
 * `POST /view` over the Move VM (contract item 6), on the calling thread. One `MoveVm` (and so one
 * module cache) per layer; each call reads the state at the requested version, runs in a throw-away
 * session under `NodeConfig.viewGasBudget` and answers with BCS values, their JSON and the gas used.
 * Works over any `Ledger`; `ViewsWorkerLayer` runs the same executor on worker threads instead.
 */
export const ViewsVmLayer = Layer.effect(
  Views,
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const config = yield* NodeConfig
    const execute = makeViewExecutor(new MoveVm(), {
      gasBudget: config.viewGasBudget,
      deadlineMs: config.viewDeadlineMs,
      filter: config.viewFilter
    })

    const view = (request: ViewRequest, ledgerVersion: bigint | undefined) =>
      Effect.flatMap(stateAtLedgerVersion(ledger, ledgerVersion), ({ ledger: info, state, version }) => {
        const answer = execute(request, state, version)
        return Result.isSuccess(answer)
          ? Effect.succeed({ ledger: info, value: answer.success })
          : Effect.fail(viewApiError(answer.failure, info))
      })

    return Views.of({ view })
  })
)
