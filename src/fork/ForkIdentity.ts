/**
 * What a fork is of — the source's URL and chain id, the pinned version, the block holding it, its
 * epoch and timestamp, the source's oldest version and block — kept as `fork.json` in the data
 * directory so a restart knows it without asking the source; and the base head the fork's first
 * block continues.
 */
import { sha3 } from "../domain/hash.js"
import type { Accumulator } from "../domain/MerkleAccumulator.js"

/** What a fork is of: kept in the data directory and in the cache, so an offline start knows it. */
export interface ForkIdentity {
  readonly url: string
  readonly chainId: number
  readonly version: bigint
  readonly height: bigint
  readonly epoch: bigint
  readonly timestampUsec: bigint
  /** The source's oldest version and block height (history below them is pruned there too). */
  readonly oldestVersion: bigint
  readonly oldestHeight: bigint
}

/** `fork.json`'s text as an identity; undefined when it does not parse. */
export const identityOf = (text: string): ForkIdentity | undefined => {
  try {
    const j = JSON.parse(text) as Record<string, string | number>
    return {
      url: String(j.url),
      chainId: Number(j.chainId),
      version: BigInt(j.version!),
      height: BigInt(j.height!),
      epoch: BigInt(j.epoch!),
      timestampUsec: BigInt(j.timestampUsec!),
      oldestVersion: BigInt(j.oldestVersion ?? 0),
      oldestHeight: BigInt(j.oldestHeight ?? 0)
    }
  } catch {
    return undefined
  }
}

export const identityText = (i: ForkIdentity) =>
  JSON.stringify({
    url: i.url,
    chainId: i.chainId,
    version: `${i.version}`,
    height: `${i.height}`,
    epoch: `${i.epoch}`,
    timestampUsec: `${i.timestampUsec}`,
    oldestVersion: `${i.oldestVersion}`,
    oldestHeight: `${i.oldestHeight}`
  })

/**
 * The transaction accumulator the fork's first block continues: V+1 leaves (stores derive the leaf
 * count from the latest version), whose frozen subtree roots the fork does not know (the API gives
 * no way to ask); one stand-in hash per root, derived from the fork's identity, so local root
 * hashes are deterministic and continue across restarts, but are not the source's.
 */
export const baseAccumulator = (identity: { readonly chainId: number; readonly version: bigint }): Accumulator => {
  const leaves = identity.version + 1n
  const frozen: Uint8Array[] = []
  for (let n = leaves, i = 0; n > 0n; n >>= 1n, i++)
    if ((n & 1n) === 1n)
      frozen.push(sha3(new TextEncoder().encode(`movenode fork ${identity.chainId} ${identity.version} ${i}`)))
  // Leftmost (largest) subtree first.
  return { frozen: frozen.reverse(), leaves }
}
