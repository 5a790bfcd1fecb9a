import * as Result from "effect/Result"
import type { StateReader } from "../../ledger/Ledger.js"
import type { ModuleSource } from "../../move/layout/ModuleSource.js"
import type { MoveVm } from "../../move/vm/MoveVm.js"
import { stateViewFromReader } from "../../move/vm/StateView.js"
import type { ViewAnswer, ViewRequest } from "../Views.js"
import {
  type BcsViewCall,
  type JsonViewCall,
  parseBcsViewRequest,
  parseJsonViewRequest,
  type ViewRequestError
} from "./parseViewRequest.js"
import { runView } from "./runView.js"
import type { ViewFilter } from "./ViewFilter.js"

/** Why a view request failed, in the API's terms, before the ledger info is attached. */
export interface ViewError {
  readonly status: 400 | 403 | 500 | 503
  readonly code: "web_framework_error" | "invalid_input" | "internal_error"
  readonly message: string
  readonly vmErrorCode: bigint | undefined
  /** Answered without the ledger info (and so without ledger headers): the view filter's 403. */
  readonly withoutLedger?: boolean | undefined
}

export interface ViewLimits {
  /** Gas budget of one call (`NodeConfig.viewGasBudget`). */
  readonly gasBudget: bigint
  /** Wall-clock bound of one call; undefined = the VM's default for views. */
  readonly deadlineMs?: number | undefined
  /** `api.view_filter`; undefined allows every function. */
  readonly filter?: ViewFilter | undefined
}

/**
 * Answers one view request against the state at `version`, synchronously: the body parsed, the
 * call run by `vm` (its module cache shared across calls), the results rendered. The same code
 * serves the in-thread layer and the view worker threads; it never throws (a VM defect is a 500).
 */
export const makeViewExecutor = (vm: MoveVm, limits: ViewLimits) => {
  return (request: ViewRequest, state: StateReader, version: bigint): Result.Result<ViewAnswer, ViewError> => {
    try {
      const parsed: Result.Result<JsonViewCall | BcsViewCall, ViewRequestError> =
        request._tag === "Json" ? parseJsonViewRequest(request.body) : parseBcsViewRequest(request.body)
      if (Result.isFailure(parsed)) {
        const f = parsed.failure
        return Result.fail({
          status: 400,
          code: f.kind === "parse" ? "web_framework_error" : "invalid_input",
          message: f.message,
          vmErrorCode: undefined
        })
      }
      // The version names the state, so module checks and the gas schedule carry over between
      // requests at the same version.
      const stateView = stateViewFromReader(state, version)
      // Argument conversion and result rendering read modules through the VM's own cache.
      const modules: ModuleSource = (address, name) => {
        try {
          return vm.loader.withView(stateView, () => vm.loader.tryLoad(address, name)?.cm)
        } catch {
          return undefined // undecodable bytes count as no module
        }
      }
      return runView(vm, stateView, modules, parsed.success, limits.gasBudget, {
        deadlineMs: limits.deadlineMs,
        filter: limits.filter
      })
    } catch (e) {
      return Result.fail({
        status: 500,
        code: "internal_error",
        message: `view execution failed: ${e instanceof Error ? e.message : String(e)}`,
        vmErrorCode: undefined
      })
    }
  }
}
