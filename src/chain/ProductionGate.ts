/**
 * What block production waits for before making a block, when something must not fall behind the
 * chain: the in-process indexer registers itself here (`indexer/engine/indexGate.ts`), so that
 * under a flood of transactions the chain makes blocks at the pace its index keeps instead of
 * leaving GraphQL answers ever further behind (issue 19: "indexing keeps up with the chain's full
 * throughput"). The chain does not know the indexer: a gate is an Effect registered at run time
 * (the indexer is built after the chain it follows), and without one nothing waits.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

export interface ProductionGateService {
  /** Before a block with transactions: waits while a registered gate says so (bounded by the gate). */
  readonly beforeBlock: Effect.Effect<void>
  /** Registers the gate (one at a time; a later one replaces it); returns its removal. */
  readonly register: (gate: Effect.Effect<void>) => () => void
}

export class ProductionGate extends Context.Service<ProductionGate, ProductionGateService>()(
  "movenode/chain/ProductionGate"
) {
  static readonly layer: Layer.Layer<ProductionGate> = Layer.sync(ProductionGate, () => {
    let current: Effect.Effect<void> | undefined
    return ProductionGate.of({
      beforeBlock: Effect.suspend(() => current ?? Effect.void),
      register: (gate) => {
        current = gate
        return () => {
          if (current === gate) current = undefined
        }
      }
    })
  })
}
