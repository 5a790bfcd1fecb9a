/**
 * Conformance harness: real nodes over LMDB in a temporary directory, served on a free port.
 * `startRun` is exactly the stack of `movenode run` (`runLayer`); `startWritableNode` is the same
 * composition with the ledger handle kept, so a test can commit blocks while the node serves.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { runLayer } from "../../src/cli.js"
import { MovenodeServer } from "../../src/http/MovenodeServer.js"
import { Ledger } from "../../src/ledger/Ledger.js"
import { LedgerLmdb } from "../../src/ledger/index.js"
import type { LedgerHandle } from "../../src/ledger/makeLedgerService.js"
import { Node } from "../../src/node/Node.js"
import { type NodeConfigShape, nodeConfigLayer } from "../../src/node/NodeConfig.js"
import { type GenesisName, genesisPath, loadGenesisBytes } from "../support/genesis.js"

export interface RunningNode {
  /** `http://127.0.0.1:PORT/v1` */
  readonly url: string
  readonly close: () => Promise<void>
}

const finish = (scope: Scope.Closeable, dir: string) => async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  rmSync(dir, { recursive: true, force: true })
}

/** `movenode run --genesis <blob> --data-dir <tmp> --listen 127.0.0.1:0 --header-prefix X-APTOS- --quiet`. */
export const startRun = async (genesis: GenesisName): Promise<RunningNode> => {
  const dir = mkdtempSync(join(tmpdir(), "movenode-conformance-"))
  const scope = Effect.runSync(Scope.make())
  const layer = runLayer({
    genesis: genesisPath(genesis),
    dataDir: dir,
    listen: { host: "127.0.0.1", port: 0 },
    metricsListen: undefined,
    headerPrefix: "X-APTOS-",
    pruneWindow: undefined,
    maxBodyBytes: undefined,
    gitHash: undefined,
    quiet: true,
    node: {},
    viewWorkerUrl: new URL("../../dist/node/view/viewWorker.js", import.meta.url)
  })
  const context = await Effect.runPromise(Layer.buildWithScope(layer as Layer.Layer<MovenodeServer>, scope))
  return { url: `http://127.0.0.1:${Context.get(context, MovenodeServer).address.port}/v1`, close: finish(scope, dir) }
}

export interface WritableNode extends RunningNode {
  readonly handle: LedgerHandle
}

/** An LMDB ledger on the devnet genesis with a pruning window, the node and the server over it. */
export const startWritableNode = async (options: {
  readonly pruneWindow?: bigint
  readonly config?: NodeConfigShape
}): Promise<WritableNode> => {
  const dir = mkdtempSync(join(tmpdir(), "movenode-conformance-"))
  const scope = Effect.runSync(Scope.make())
  const handle = await Effect.runPromise(
    Scope.provide(scope)(
      LedgerLmdb.open({ path: dir, genesis: loadGenesisBytes("devnet"), pruneWindow: options.pruneWindow })
    )
  )
  const layer = MovenodeServer.layer({ listen: { host: "127.0.0.1", port: 0 }, headerPrefix: "X-APTOS-" }).pipe(
    Layer.provide(Node.layer),
    Layer.provide(Layer.succeed(Ledger, handle.service)),
    Layer.provide(options.config === undefined ? Layer.empty : nodeConfigLayer(options.config))
  )
  const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
  return {
    url: `http://127.0.0.1:${Context.get(context, MovenodeServer).address.port}/v1`,
    handle,
    close: finish(scope, dir)
  }
}
