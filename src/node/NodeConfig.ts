import { availableParallelism } from "node:os"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import { defaultGasEstimationConfig, type GasEstimationConfig } from "../domain/gasEstimate.js"
import type { ViewFilter } from "./view/ViewFilter.js"

export interface NodeConfigShape {
  /** `api.max_transactions_page_size`: the largest page of transactions and transaction summaries. */
  readonly maxPageSize: number
  /** `api.max_account_resources_page_size`: the largest page of an account's resources (also the default). */
  readonly maxResourcesPageSize: number
  /** `api.max_account_modules_page_size`: the largest page of an account's modules (also the default). */
  readonly maxModulesPageSize: number
  /** `api.max_events_page_size`: the largest page of events. */
  readonly maxEventsPageSize: number
  readonly gasEstimation: GasEstimationConfig
  /** Gas budget of one view function call. */
  readonly viewGasBudget: bigint
  /** Wall-clock bound of one view function call, in milliseconds (the VM's default, 50, when absent). */
  readonly viewDeadlineMs?: number | undefined
  /**
   * Worker threads that run view functions off the event loop (`ViewsWorkerLayer`, used by
   * `movenode run` over LMDB); 0 runs them on the calling thread. Layers that do not use workers
   * ignore it. Default: the cores but one, between 1 and 4.
   */
  readonly viewThreads: number
  /** `api.view_filter`: functions views may (allowlist) or may not (blocklist) call; absent allows all. */
  readonly viewFilter?: ViewFilter | undefined
  /** How many module ABIs (keyed by the version that wrote each module) are kept. */
  readonly moduleAbiCacheSize: number
  /**
   * Transaction summary pages kept for the current ledger head (a commit drops them); 0 reads every
   * page from the ledger.
   */
  readonly summaryPageCache: number
}

export const defaultNodeConfig: NodeConfigShape = {
  maxPageSize: 100,
  maxResourcesPageSize: 9999,
  maxModulesPageSize: 9999,
  maxEventsPageSize: 100,
  gasEstimation: defaultGasEstimationConfig,
  viewGasBudget: 2_000_000n,
  // One core is left for the event loop (HTTP, ledger); at least one worker, at most four.
  viewThreads: Math.max(1, Math.min(4, availableParallelism() - 1)),
  moduleAbiCacheSize: 1024,
  summaryPageCache: 256
}

/**
 * The node services' configuration. A reference with the defaults, so nothing has to provide it;
 * the CLI (or a test) overrides it with `NodeConfig.layer(...)`.
 */
export const NodeConfig = Context.Reference<NodeConfigShape>("movenode/node/NodeConfig", {
  defaultValue: () => defaultNodeConfig
})

/** Validation in the reference's sanitizer terms: histories positive, low and market within aggressive. */
export const validateNodeConfig = (c: NodeConfigShape): ReadonlyArray<string> => {
  const problems: string[] = []
  const g = c.gasEstimation
  if (!Number.isInteger(c.maxPageSize) || c.maxPageSize < 1 || c.maxPageSize > 65535)
    problems.push("maxPageSize must be an integer in 1..65535")
  for (const [name, v] of [
    ["maxResourcesPageSize", c.maxResourcesPageSize],
    ["maxModulesPageSize", c.maxModulesPageSize],
    ["maxEventsPageSize", c.maxEventsPageSize]
  ] as const)
    if (!Number.isInteger(v) || v < 1 || v > 65535) problems.push(`${name} must be an integer in 1..65535`)
  for (const [name, v] of [
    ["lowBlockHistory", g.lowBlockHistory],
    ["marketBlockHistory", g.marketBlockHistory],
    ["aggressiveBlockHistory", g.aggressiveBlockHistory],
    ["fullBlockTxns", g.fullBlockTxns]
  ] as const)
    if (!Number.isInteger(v) || v < 1) problems.push(`gasEstimation.${name} must be a positive integer`)
  if (g.lowBlockHistory > g.aggressiveBlockHistory || g.marketBlockHistory > g.aggressiveBlockHistory)
    problems.push("gasEstimation: low and market block histories must not exceed the aggressive one")
  if (g.cacheExpirationMs < 0) problems.push("gasEstimation.cacheExpirationMs must not be negative")
  if (c.moduleAbiCacheSize < 1) problems.push("moduleAbiCacheSize must be positive")
  if (!Number.isInteger(c.summaryPageCache) || c.summaryPageCache < 0)
    problems.push("summaryPageCache must be a non-negative integer")
  if (c.viewGasBudget < 0n) problems.push("viewGasBudget must not be negative")
  if (c.viewDeadlineMs !== undefined && !(c.viewDeadlineMs > 0 && c.viewDeadlineMs <= 60_000))
    problems.push("viewDeadlineMs must be in (0, 60000]")
  if (!Number.isInteger(c.viewThreads) || c.viewThreads < 0 || c.viewThreads > 64)
    problems.push("viewThreads must be an integer in 0..64")
  return problems
}

/** Overrides parts of the defaults (gas estimation fields merge one level deep). */
export const makeNodeConfig = (
  overrides: Partial<Omit<NodeConfigShape, "gasEstimation">> & {
    readonly gasEstimation?: Partial<GasEstimationConfig>
  } = {}
): NodeConfigShape => ({
  ...defaultNodeConfig,
  ...overrides,
  gasEstimation: { ...defaultGasEstimationConfig, ...overrides.gasEstimation }
})

/** Provides a configuration in place of the defaults. */
export const nodeConfigLayer = (config: NodeConfigShape) => Layer.succeed(NodeConfig, config)
