import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { AccountAddress } from "../domain/AccountAddress.js"
import type { ApiError } from "../domain/ApiError.js"
import type { LedgerInfo } from "../domain/LedgerInfo.js"
import type { TransactionSummary } from "../ledger/Ledger.js"
import { Balances } from "./Balances.js"
import { GasEstimator } from "./GasEstimator.js"
import { makeNode } from "./makeNode.js"
import { Modules } from "./Modules.js"
import { ReadsLayer, type ReadServices } from "./Reads.js"
import { type SimulateOptions, type SimulationAnswer, SimulationsLive } from "./Simulations.js"
import type { SubmissionsService } from "./Submissions.js"
import { Summaries } from "./Summaries.js"
import type { TransactionEncoder } from "./TransactionEncoder.js"
import { TransactionEncoderLive } from "./encode/TransactionEncoderLive.js"
import type { Views } from "./Views.js"
import { ViewsVmLayer } from "./view/ViewsVm.js"

export type { WithLedger } from "./WithLedger.js"
import type { WithLedger } from "./WithLedger.js"

/** The three gas prices of `estimate_gas_price` (low, market, aggressive), as the domain computes them. */
export type { GasEstimate } from "../domain/gasEstimate.js"
import type { GasEstimate } from "../domain/gasEstimate.js"

/** `asset_type` path segment, already parsed: a coin type (struct tag string) or an FA metadata address. */
export type AssetType =
  | { readonly _tag: "Coin"; readonly structTag: string }
  | { readonly _tag: "FungibleAsset"; readonly metadata: AccountAddress }

export interface SummaryPage {
  readonly summaries: ReadonlyArray<TransactionSummary>
  /** When the page is full: the `start_version` of the next page (the `CURSOR` header). */
  readonly cursor: bigint | undefined
}

export interface ModuleAnswer {
  readonly bytecode: Uint8Array
  /** The ABI as its JSON text, computed once per stored module version and reused. */
  readonly abiJson: string
}

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
  readonly simulate: (body: Uint8Array, options: SimulateOptions) => Effect.Effect<WithLedger<SimulationAnswer>, ApiError>
  /** The same with a JSON `SubmitTransactionRequest` (parsed JSON), converted as submissions convert it. */
  readonly simulateJson: (body: unknown, options: SimulateOptions) => Effect.Effect<WithLedger<SimulationAnswer>, ApiError>
  /** Submission and pending transactions: the local chain's (`Submissions`); undefined on a read-only node. */
  readonly submissions: SubmissionsService | undefined
}

export class Node extends Context.Service<Node, NodeService>()("movenode/node/Node") {
  /** `NodeService` over the per-concern services, which the caller provides (with the `Ledger`). */
  static readonly layerNoDeps = Layer.effect(Node, makeNode)

  /** The per-concern services implemented here; each needs the `Ledger` (and reads `NodeConfig`). */
  static readonly serviceLayers = Layer.mergeAll(
    Balances.layer,
    Summaries.layer,
    Modules.layer,
    ReadsLayer,
    // Simulation uses the same gas estimator (and cache) as /estimate_gas_price.
    SimulationsLive.pipe(Layer.provideMerge(GasEstimator.layer))
  )

  /** The node over a `Ledger` with the given view and transaction-encoding layers. */
  static readonly layerWith = <E1, R1, E2, R2>(
    views: Layer.Layer<Views, E1, R1>,
    encoder: Layer.Layer<TransactionEncoder, E2, R2>
  ) => Node.layerNoDeps.pipe(Layer.provide(Layer.mergeAll(Node.serviceLayers, views, encoder)))

  /** The node over a `Ledger`: views run on the Move VM, transactions encoded by the on-chain ABI. */
  static readonly layer = Node.layerWith(ViewsVmLayer, TransactionEncoderLive)
}
