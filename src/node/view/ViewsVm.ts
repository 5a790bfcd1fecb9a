import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import { ApiError } from "../../domain/ApiError.js"
import type { ModuleSource } from "../../move/layout/ModuleSource.js"
import { MoveVm } from "../../move/vm/MoveVm.js"
import { stateViewFromReader } from "../../move/vm/StateView.js"
import { Ledger } from "../../ledger/Ledger.js"
import { stateAtLedgerVersion } from "../LedgerVersion.js"
import type { ViewRequest } from "../Node.js"
import { NodeConfig } from "../NodeConfig.js"
import { Views } from "../Views.js"
import {
  type BcsViewCall,
  type JsonViewCall,
  parseBcsViewRequest,
  parseJsonViewRequest,
  type ViewRequestError
} from "./parseViewRequest.js"
import { runView } from "./runView.js"

/**
 * `POST /view` over the Move VM (contract item 6). One `MoveVm` (and so one module cache) per
 * layer; each call reads the state at the requested version, runs in a throw-away session under
 * `NodeConfig.viewGasBudget` and answers with BCS values, their JSON and the gas used.
 */
export const ViewsVmLayer = Layer.effect(
  Views,
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const config = yield* NodeConfig
    const vm = new MoveVm()

    const view = (request: ViewRequest, ledgerVersion: bigint | undefined) =>
      Effect.gen(function* () {
        const { ledger: info, state, version } = yield* stateAtLedgerVersion(ledger, ledgerVersion)
        const parsed: Result.Result<JsonViewCall | BcsViewCall, ViewRequestError> =
          request._tag === "Json" ? parseJsonViewRequest(request.body) : parseBcsViewRequest(request.body)
        if (Result.isFailure(parsed)) {
          const f = parsed.failure
          return yield* Effect.fail(
            f.kind === "parse"
              ? new ApiError({ status: 400, code: "web_framework_error", message: f.message, ledger: info })
              : new ApiError({ status: 400, code: "invalid_input", message: f.message, ledger: info })
          )
        }
        // One ledger per layer, so the version names the state: module checks and the gas schedule
        // carry over between requests at the same version.
        const stateView = stateViewFromReader(state, version)
        // Argument conversion and result rendering read modules through the VM's own cache.
        const modules: ModuleSource = (address, name) => {
          try {
            return vm.loader.withView(stateView, () => vm.loader.tryLoad(address, name)?.cm)
          } catch {
            return undefined // undecodable bytes count as no module
          }
        }
        const answer = runView(vm, stateView, modules, parsed.success, config.viewGasBudget)
        if (Result.isFailure(answer)) {
          const f = answer.failure
          return yield* Effect.fail(
            new ApiError({
              status: f.status,
              code: f.code,
              message: f.message,
              vmErrorCode: f.vmErrorCode,
              ledger: info
            })
          )
        }
        return { ledger: info, value: answer.success }
      })

    return Views.of({ view })
  })
)
