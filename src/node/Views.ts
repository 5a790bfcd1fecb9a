import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { ApiError } from "../domain/ApiError.js"
import type { ViewAnswer, ViewRequest, WithLedger } from "./Node.js"

export interface ViewsService {
  /**
   * Executes a view function against the state at `ledgerVersion` (undefined = latest) under the
   * configured gas budget (`NodeConfig.viewGasBudget`), per contract item 6. The real
   * implementation applies the `ledger_version` rules with `stateAtLedgerVersion`.
   */
  readonly view: (request: ViewRequest, ledgerVersion: bigint | undefined) => Effect.Effect<WithLedger<ViewAnswer>, ApiError>
}

/** `POST /view`: implemented by `ViewsVmLayer` (`src/node/view`), the Move VM over the ledger. */
export class Views extends Context.Service<Views, ViewsService>()("movenode/node/Views") {}
