import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import { Balances } from "./Balances.js"
import { GasEstimator } from "./GasEstimator.js"
import { makeNode } from "./makeNode.js"
import type { NodeService } from "./NodeService.js"
import { Modules } from "./Modules.js"
import { ReadsLayer } from "./Reads.js"
import { SimulationsLive } from "./Simulations.js"
import { Summaries } from "./Summaries.js"
import type { TransactionEncoder } from "./TransactionEncoder.js"
import { TransactionEncoderLive } from "./encode/TransactionEncoderLive.js"
import type { Views } from "./Views.js"
import { ViewsVmLayer } from "./view/ViewsVm.js"

export class Node extends Context.Service<Node, NodeService>()("movenode/node/Node") {
  /** `NodeService` over the per-concern services, which the caller provides (with the `Ledger`). */
  static readonly layerNoDeps = Layer.effect(Node, makeNode)

  /** The per-concern services implemented here; each needs the `Ledger` (and reads `NodeConfig`). */
  static readonly serviceLayers = Layer.mergeAll(
    Balances.layer,
    Summaries.layer,
    Modules.layer,
    // Simulation uses the same gas estimator (and cache) as /estimate_gas_price, and the reads'
    // renderer for the tables' types.
    SimulationsLive.pipe(Layer.provideMerge(GasEstimator.layer))
  ).pipe(Layer.provideMerge(ReadsLayer))

  /** The node over a `Ledger` with the given view and transaction-encoding layers. */
  static readonly layerWith = <E1, R1, E2, R2>(
    views: Layer.Layer<Views, E1, R1>,
    encoder: Layer.Layer<TransactionEncoder, E2, R2>
  ) => Node.layerNoDeps.pipe(Layer.provide(Layer.mergeAll(Node.serviceLayers, views, encoder)))

  /** The node over a `Ledger`: views run on the Move VM, transactions encoded by the on-chain ABI. */
  static readonly layer = Node.layerWith(ViewsVmLayer, TransactionEncoderLive)
}
