import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ApiErrors, type ApiError } from "../domain/ApiError.js"
import { Ledger } from "../ledger/Ledger.js"
import { readLedgerInfo } from "./LedgerVersion.js"
import type { ViewAnswer, ViewRequest, WithLedger } from "./Node.js"

export interface ViewsService {
  /**
   * Executes a view function against the state at `ledgerVersion` (undefined = latest) under the
   * configured gas budget (`NodeConfig.viewGasBudget`), per contract item 6. The real
   * implementation applies the `ledger_version` rules with `stateAtLedgerVersion`.
   */
  readonly view: (request: ViewRequest, ledgerVersion: bigint | undefined) => Effect.Effect<WithLedger<ViewAnswer>, ApiError>
}

/** `POST /view`. Its implementation comes with the Move VM. */
export class Views extends Context.Service<Views, ViewsService>()("movenode/node/Views") {
  /** Interim: answers 500 `internal_error` until the VM lands (with the ledger headers). */
  static readonly layerNotImplemented = Layer.effect(
    Views,
    Effect.gen(function* () {
      const ledger = yield* Ledger
      return Views.of({
        view: () =>
          Effect.flatMap(readLedgerInfo(ledger), (info) =>
            Effect.fail(ApiErrors.internal("View functions are not implemented yet", info))
          )
      })
    })
  )
}
