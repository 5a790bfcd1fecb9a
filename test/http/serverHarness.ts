import { Context, Effect, Exit, Layer, Scope } from "effect"
import type { HttpConfig } from "../../src/http/HttpConfig.js"
import { MovenodeServer } from "../../src/http/MovenodeServer.js"
import { Node } from "../../src/node/Node.js"
import type { NodeService } from "../../src/node/NodeService.js"

/** Starts the real server layer on an ephemeral port over the given node; `close` releases it. */
export const startServer = async (node: NodeService, config: Partial<HttpConfig> = {}) => {
  const scope = Effect.runSync(Scope.make())
  const layer = MovenodeServer.layer({ listen: { host: "127.0.0.1", port: 0 }, ...config }).pipe(
    Layer.provide(Layer.succeed(Node, node))
  )
  const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
  const info = Context.get(context, MovenodeServer)
  return {
    info,
    url: `http://127.0.0.1:${info.address.port}`,
    close: () => Effect.runPromise(Scope.close(scope, Exit.void))
  }
}
