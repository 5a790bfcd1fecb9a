import type * as Effect from "effect/Effect"
import type { AccountAddress } from "../domain/AccountAddress.js"
import type { ApiError } from "../domain/ApiError.js"
import type { GasEstimate } from "../domain/gasEstimate.js"
import type { LedgerInfo } from "../domain/LedgerInfo.js"
import type { AssetType } from "./Balances.js"
import type { ModuleAnswer } from "./Modules.js"
import type { ReadServices } from "./Reads.js"
import type { SimulationsService } from "./Simulations.js"
import type { ChainControlsService } from "../chain/controls/ChainControls.js"
import type { SubmissionsService } from "./Submissions.js"
import type { SummaryPage } from "./Summaries.js"
import type { ViewAnswer, ViewRequest } from "./Views.js"
import type { WithLedger } from "./WithLedger.js"

/**
 * The questions the API asks the node. The HTTP layer depends on this service only; each method
 * fails with `ApiError` in the contract's terms. `ledgerVersion` undefined means latest.
 */
export interface NodeService {
  readonly ledgerInfo: Effect.Effect<LedgerInfo, ApiError>
  readonly balance: (
    address: AccountAddress,
    asset: AssetType,
    ledgerVersion: bigint | undefined
  ) => Effect.Effect<WithLedger<bigint>, ApiError>
  readonly estimateGasPrice: Effect.Effect<WithLedger<GasEstimate>, ApiError>
  readonly transactionSummaries: (
    address: AccountAddress,
    query: {
      readonly startVersion?: bigint | undefined
      readonly endVersion?: bigint | undefined
      readonly limit?: number | undefined
    }
  ) => Effect.Effect<WithLedger<SummaryPage>, ApiError>
  readonly module: (
    address: AccountAddress,
    name: string,
    ledgerVersion: bigint | undefined
  ) => Effect.Effect<WithLedger<ModuleAnswer>, ApiError>
  readonly view: (
    request: ViewRequest,
    ledgerVersion: bigint | undefined
  ) => Effect.Effect<WithLedger<ViewAnswer>, ApiError>
  /** Returns the signing message bytes. `body` is the parsed JSON request. */
  readonly encodeSubmission: (body: unknown) => Effect.Effect<WithLedger<Uint8Array>, ApiError>
  /** The read endpoints' services (accounts, resources, transactions, blocks, events, tables). */
  readonly reads: ReadServices
  /** `POST /transactions/simulate`: a BCS signed transaction (invalid signature) run on the latest state. */
  readonly simulate: SimulationsService["simulate"]
  /** The same with a JSON `SubmitTransactionRequest` (parsed JSON), converted as submissions convert it. */
  readonly simulateJson: SimulationsService["simulateJson"]
  /** Submission and pending transactions: the local chain's (`Submissions`); undefined on a read-only node. */
  readonly submissions: SubmissionsService | undefined
  /** The local chain's test controls (`/__movenode/v1/…`); undefined on any other node. */
  readonly controls?: ChainControlsService | undefined
}
