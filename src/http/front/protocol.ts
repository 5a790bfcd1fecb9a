/**
 * The messages between the node's process and its front process (`FrontProcess.ts`,
 * `frontMain.ts`), over the child's IPC channel. A connection crosses as a descriptor (Node's
 * `subprocess.send(message, socket)`: SCM_RIGHTS) with the bytes the front read from it, which the
 * receiving HTTP server parses first.
 */
import type { GasEstimationConfig } from "../../domain/gasEstimate.js"
import type { NodeConfigShape } from "../../node/NodeConfig.js"

export type SiteKind = "api" | "readiness"

export interface FrontSiteOptions {
  readonly host: string
  readonly port: number
  readonly kind: SiteKind
  /** An API site's reads answered by the front itself (`frontReads.ts`); none: every connection is handed over. */
  readonly reads?: FrontReadsSpec | undefined
}

/** What a front needs to answer reads (`frontReads.ts`) as the node's server answers them. */
export interface FrontReadsSpec {
  /** The LMDB ledger's directory, which the node writes and the front reads. */
  readonly dataDir: string
  readonly headerPrefix: string
  readonly gitHash: string | undefined
  /** A request-log line per request, as the node's own. */
  readonly logRequests: boolean
  /** The node's page sizes and caches (`NodeConfigShape`). */
  readonly pages: FrontPages
  /** The node's gas estimation settings, so that the front's estimate is the node's. */
  readonly gasEstimation: GasEstimationWire
}

/** `GasEstimationConfig` as it crosses the IPC channel (JSON: its bigints as decimal strings). */
export interface GasEstimationWire extends Omit<GasEstimationConfig, "buckets" | "staticOverride"> {
  readonly buckets: ReadonlyArray<string>
  readonly staticOverride?: { readonly low: string; readonly market: string; readonly aggressive: string } | undefined
}

export const gasEstimationToWire = (c: GasEstimationConfig): GasEstimationWire => ({
  ...c,
  buckets: c.buckets.map(String),
  staticOverride:
    c.staticOverride === undefined
      ? undefined
      : {
          low: String(c.staticOverride.low),
          market: String(c.staticOverride.market),
          aggressive: String(c.staticOverride.aggressive)
        }
})

export const gasEstimationFromWire = (w: GasEstimationWire): GasEstimationConfig => ({
  ...w,
  buckets: w.buckets.map(BigInt),
  staticOverride:
    w.staticOverride === undefined
      ? undefined
      : {
          low: BigInt(w.staticOverride.low),
          market: BigInt(w.staticOverride.market),
          aggressive: BigInt(w.staticOverride.aggressive)
        }
})

export type FrontPages = Pick<
  NodeConfigShape,
  | "maxPageSize"
  | "maxResourcesPageSize"
  | "maxModulesPageSize"
  | "maxEventsPageSize"
  | "moduleAbiCacheSize"
  | "summaryPageCache"
>

/** The node's page sizes and caches as the front takes them (only these cross: not the whole config). */
export const frontPagesOf = (config: NodeConfigShape): FrontPages => ({
  maxPageSize: config.maxPageSize,
  maxResourcesPageSize: config.maxResourcesPageSize,
  maxModulesPageSize: config.maxModulesPageSize,
  maxEventsPageSize: config.maxEventsPageSize,
  moduleAbiCacheSize: config.moduleAbiCacheSize,
  summaryPageCache: config.summaryPageCache
})

/** What the readiness server answers (`ReadinessServer.ts`), as the node last computed it. */
export interface ReadinessState {
  readonly ready: ReadonlyArray<unknown>
  readonly notReady: ReadonlyArray<unknown>
}

export type ToFront =
  | { readonly _tag: "Listen"; readonly site: number; readonly options: FrontSiteOptions }
  /** Accept on the listening socket that comes with the message (another front process bound it). */
  | { readonly _tag: "ListenShared"; readonly site: number; readonly options: FrontSiteOptions }
  | { readonly _tag: "Readiness"; readonly site: number; readonly state: ReadinessState }
  | { readonly _tag: "CloseSite"; readonly site: number }
  /** A handed-over connection was taken: the next may be sent. */
  | { readonly _tag: "Taken" }

export type FromFront =
  | { readonly _tag: "Listening"; readonly site: number; readonly host: string; readonly port: number }
  /** The API's listening socket (comes with the message), for the other front processes to accept on too. */
  | { readonly _tag: "Shared"; readonly site: number }
  | {
      readonly _tag: "ListenFailed"
      readonly site: number
      readonly message: string
      readonly code: string | undefined
    }
  /** A connection (the descriptor travels with the message) and the bytes already read from it, latin1. */
  | { readonly _tag: "Connection"; readonly site: number; readonly head: string }
  | { readonly _tag: "SiteClosed"; readonly site: number }
  /** The site's read-only node could not start (the node serves its reads); tried again on a read after `retryInMs`. */
  | { readonly _tag: "ReadsFailed"; readonly site: number; readonly message: string; readonly retryInMs: number }
