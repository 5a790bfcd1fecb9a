import { sha3Concat, hashPrefix } from "./hash.js"

/**
 * The reference's Merkle accumulator (`InMemoryAccumulator`): an append-only binary Merkle tree over
 * 32-byte leaf hashes, kept as the roots of its frozen (complete) subtrees, leftmost first. An
 * internal node is sha3(prefix(hasher) ‖ left ‖ right), where the hasher is "TransactionAccumulator"
 * for the ledger's transaction infos and "EventAccumulator" for one transaction's events; an empty
 * subtree is `ACCUMULATOR_PLACEHOLDER_HASH`. At most 64 frozen roots (one per bit of the leaf count).
 */
export interface Accumulator {
  readonly frozen: ReadonlyArray<Uint8Array>
  readonly leaves: bigint
}

export type AccumulatorHasher = "TransactionAccumulator" | "EventAccumulator"

/** "ACCUMULATOR_PLACEHOLDER_HASH" as ASCII, zero-padded to 32 bytes. */
export const ACCUMULATOR_PLACEHOLDER_HASH: Uint8Array = (() => {
  const out = new Uint8Array(32)
  out.set(new TextEncoder().encode("ACCUMULATOR_PLACEHOLDER_HASH"))
  return out
})()

export const emptyAccumulator: Accumulator = { frozen: [], leaves: 0n }

const node = (hasher: AccumulatorHasher, left: Uint8Array, right: Uint8Array): Uint8Array =>
  sha3Concat(hashPrefix(hasher), left, right)

/**
 * The accumulator with `leaf` appended: the leaf becomes the newest frozen root, then the two newest
 * roots merge once per trailing one bit of the old leaf count (a binary carry).
 */
export const appendLeaf = (hasher: AccumulatorHasher, acc: Accumulator, leaf: Uint8Array): Accumulator => {
  const frozen = acc.frozen.slice()
  frozen.push(leaf)
  for (let n = acc.leaves; (n & 1n) === 1n; n >>= 1n) {
    const right = frozen.pop()!
    const left = frozen.pop()!
    frozen.push(node(hasher, left, right))
  }
  return { frozen, leaves: acc.leaves + 1n }
}

/**
 * The root: frozen roots combined from the right, each missing right sibling being the placeholder
 * (bits of the leaf count above its lowest set bit decide, as `compute_root_hash` does).
 */
export const accumulatorRoot = (hasher: AccumulatorHasher, acc: Accumulator): Uint8Array => {
  if (acc.frozen.length === 0) return ACCUMULATOR_PLACEHOLDER_HASH
  if (acc.frozen.length === 1) return acc.frozen[0]!
  let bits = acc.leaves
  while ((bits & 1n) === 0n) bits >>= 1n
  let current = ACCUMULATOR_PLACEHOLDER_HASH
  let next = acc.frozen.length - 1
  for (; bits > 0n; bits >>= 1n)
    current =
      (bits & 1n) === 1n
        ? node(hasher, acc.frozen[next--]!, current)
        : node(hasher, current, ACCUMULATOR_PLACEHOLDER_HASH)
  return current
}

/** The root over `leaves` from scratch (an event list, a test). */
export const accumulatorRootOf = (hasher: AccumulatorHasher, leaves: ReadonlyArray<Uint8Array>): Uint8Array => {
  let acc = emptyAccumulator
  for (const leaf of leaves) acc = appendLeaf(hasher, acc, leaf)
  return accumulatorRoot(hasher, acc)
}
