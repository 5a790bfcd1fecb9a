import type { BlockInfo } from "./Ledger.js"

/**
 * The oldest retained version and block for a pruning window of `window` versions after the
 * latest block `latest`: the first version of the first block all of whose versions lie within the
 * last `window` versions (the reference's "first viable block", aptos-api-behaviour §1.4). When
 * even the latest block is longer than the window, the latest block is kept: a ledger never prunes
 * the block its ledger info describes. The window only moves forward (`current` is a floor).
 */
export const oldestRetained = (
  window: bigint | undefined,
  latest: BlockInfo,
  current: { readonly version: bigint; readonly height: bigint },
  blockOfVersion: (version: bigint) => BlockInfo | undefined
): { readonly version: bigint; readonly height: bigint } => {
  if (window === undefined || window <= 0n) return current
  const minViable = latest.lastVersion + 1n - window
  if (minViable <= current.version) return current
  if (minViable >= latest.firstVersion) return { version: latest.firstVersion, height: latest.height }
  const containing = blockOfVersion(minViable)
  if (containing === undefined) return current
  if (containing.firstVersion === minViable) return { version: containing.firstVersion, height: containing.height }
  // The block holding minViable is partly outside the window: the next block is the oldest viable.
  return {
    version: containing.lastVersion + 1n,
    height: containing.height + 1n
  }
}
