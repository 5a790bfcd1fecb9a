import * as Layer from "effect/Layer"
import { Ledger } from "../ledger/Ledger.js"
import { TransactionEncoderLive } from "../node/encode/TransactionEncoderLive.js"
import { Node } from "../node/Node.js"
import { type NodeConfigShape, nodeConfigLayer } from "../node/NodeConfig.js"
import { ViewsVmLayer } from "../node/view/ViewsVm.js"
import { readOnlyLedger } from "./readOnlyStore.js"

/**
 * The node's services over an LMDB ledger another process writes (`readOnlyLedger`): what an API
 * worker (`apiWorkers.ts`) and the local chain's front process (`http/front/frontReads.ts`) answer
 * reads from. Views run in this thread (`config.viewThreads` 0: each of these is already one of
 * several processes). `NodeConfig` is provided to what is built over it too (the API server reads it).
 */
export const readOnlyNodeLayer = (dataDir: string, config: NodeConfigShape) =>
  Node.layerWith(ViewsVmLayer, TransactionEncoderLive).pipe(
    Layer.provide(Layer.effect(Ledger, readOnlyLedger(dataDir))),
    Layer.provideMerge(nodeConfigLayer(config))
  )
