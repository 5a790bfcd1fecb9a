/** How to fork (`movenode --fork-url …`, `LocalChain`'s `fork`): plain data, read by `src/fork`. */
export interface ForkConfig {
  /** The source's REST API (`http://host:8080` or `…/v1`). */
  readonly url: string
  /** The version to fork at (the source's state after it); undefined = the source's latest at start. */
  readonly version?: bigint | undefined
  /** Extra headers on every source request (an API key). */
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** Where remote caches live (one directory per chain id and version); default `<dataDir>/fork-cache`, or memory. */
  readonly cacheDir?: string | undefined
  /** Source call attempts (default 6) and per-attempt timeout (default 15 s). */
  readonly attempts?: number | undefined
  readonly timeoutMs?: number | undefined
  /**
   * The fork's chain id; undefined = the source's. Overriding writes `0x1::chain_id::ChainId` over
   * the source's value (transactions must then carry it), as a value of the fork's base.
   */
  readonly chainId?: number | undefined
  /** Receives the start's progress lines (prefetch). */
  readonly progress?: ((line: string) => void) | undefined
}
