import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import type { LocalChainConfigShape } from "../chain/LocalChainConfig.js"
import { LocalChain, type LocalChainInfo } from "../LocalChain.js"
import { TestChain } from "./TestChain.js"

/** A local chain in this process, with the test helpers, until `stop()`. */
export class RunningLocalChain extends TestChain {
  constructor(
    readonly info: LocalChainInfo,
    readonly stop: () => Promise<void>
  ) {
    super(info.apiUrl, info.faucetUrl)
  }

  /** What `new AptosConfig(…)` takes for this chain (`Network.LOCAL` is chain id 4, as here). */
  aptosSettings(): { readonly network: "local"; readonly fullnode: string; readonly faucet: string | undefined } {
    return { network: "local", fullnode: this.info.apiUrl, faucet: this.info.faucetUrl }
  }
}

/**
 * Starts `LocalChain.spawn(overrides)` (every port 0, in memory, unless overridden) in a scope of
 * its own; `stop()` closes it (servers first).
 */
export const startLocalChain = async (overrides: Partial<LocalChainConfigShape> = {}): Promise<RunningLocalChain> => {
  const scope = Effect.runSync(Scope.make())
  try {
    const info = await Effect.runPromise(Scope.provide(scope)(LocalChain.spawn(overrides)))
    return new RunningLocalChain(info, () => Effect.runPromise(Scope.close(scope, Exit.void)))
  } catch (e) {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    throw e
  }
}
