/**
 * Test harness of the read endpoints: a node over an in-memory ledger holding a genesis blob, the
 * real server over it on a free port, and the ledger handle so tests can commit synthetic blocks.
 */
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { MovenodeServer } from "../../src/http/MovenodeServer.js"
import { Ledger } from "../../src/ledger/Ledger.js"
import { LedgerMemory } from "../../src/ledger/index.js"
import type { LedgerHandle } from "../../src/ledger/makeLedgerService.js"
import { Node } from "../../src/node/Node.js"
import type { NodeService } from "../../src/node/NodeService.js"
import { type GenesisName, loadGenesisBytes } from "../support/genesis.js"

export interface ReadsNode {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string
  /** `http://127.0.0.1:PORT` of the Prometheus endpoint, when `metrics` was asked for. */
  readonly metricsOrigin: string | undefined
  readonly handle: LedgerHandle
  readonly node: NodeService
  readonly get: (path: string, init?: RequestInit) => Promise<Response>
  readonly close: () => Promise<void>
}

export const startReadsNode = async (
  genesis: GenesisName,
  options: { readonly pruneWindow?: bigint; readonly metrics?: boolean } = {}
): Promise<ReadsNode> => {
  const scope = Effect.runSync(Scope.make())
  const handle = await Effect.runPromise(
    LedgerMemory.make({ genesis: loadGenesisBytes(genesis), pruneWindow: options.pruneWindow })
  )
  const nodeLayer = Node.layer.pipe(Layer.provide(Layer.succeed(Ledger, handle.service)))
  const layer = Layer.merge(
    MovenodeServer.layer({
      listen: { host: "127.0.0.1", port: 0 },
      headerPrefix: "X-APTOS-",
      ...(options.metrics === true ? { metricsListen: { host: "127.0.0.1", port: 0 } } : {})
    }).pipe(Layer.provide(nodeLayer)),
    nodeLayer
  )
  const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
  const info = Context.get(context, MovenodeServer)
  const origin = `http://127.0.0.1:${info.address.port}`
  return {
    origin,
    metricsOrigin: info.metricsAddress === undefined ? undefined : `http://127.0.0.1:${info.metricsAddress.port}`,
    handle,
    node: Context.get(context, Node),
    get: (path, init) => fetch(origin + path, init),
    close: () => Effect.runPromise(Scope.close(scope, Exit.void))
  }
}
