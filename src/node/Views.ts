import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { ApiError } from "../domain/ApiError.js"
import type { WithLedger } from "./WithLedger.js"

export interface ViewAnswer {
  /** One BCS value per return value (for BCS responses). */
  readonly bcsValues: ReadonlyArray<Uint8Array>
  /** The values rendered as JSON (for JSON responses), one per return value. */
  readonly json: ReadonlyArray<unknown>
  readonly gasUsed: bigint
}

/** A POST /view body, either JSON (unconverted arguments) or BCS (`ViewFunction`). */
export type ViewRequest =
  | { readonly _tag: "Json"; readonly body: unknown }
  | { readonly _tag: "Bcs"; readonly body: Uint8Array }

export interface ViewsService {
  /**
   * Executes a view function against the state at `ledgerVersion` (undefined = latest) under the
   * configured gas budget (`NodeConfig.viewGasBudget`), per contract item 6. The real
   * implementation applies the `ledger_version` rules with `stateAtLedgerVersion`.
   */
  readonly view: (
    request: ViewRequest,
    ledgerVersion: bigint | undefined
  ) => Effect.Effect<WithLedger<ViewAnswer>, ApiError>
}

/** `POST /view`: implemented by `ViewsVmLayer` (`src/node/view`), the Move VM over the ledger. */
export class Views extends Context.Service<Views, ViewsService>()("movenode/node/Views") {}
