import { sha3Concat, hashPrefix } from "./hash.js"
import { type NodeHashing, nodeHashing } from "./sha3Wasm.js"

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

/**
 * Internal nodes along a path (`NodeHashing`): in WebAssembly, where the host has it and every part is
 * a 32-byte hash (the only size its block holds; nothing else ever is a leaf), else the same steps
 * over `sha3Concat` (a host without WebAssembly: `node --jitless`).
 */
const jsNodes = ((): NodeHashing => {
  let prefix: Uint8Array = new Uint8Array(32)
  let digest: Uint8Array = new Uint8Array(32)
  return {
    prefix: (p) => {
      prefix = p
    },
    node: (left, right) => {
      digest = sha3Concat(prefix, left, right)
    },
    nodeLeftOfDigest: (left) => {
      digest = sha3Concat(prefix, left, digest)
    },
    nodeRightOfDigest: (right) => {
      digest = sha3Concat(prefix, digest, right)
    },
    digest: () => digest
  }
})()

const nodesFor = (hasher: AccumulatorHasher, roots: ReadonlyArray<Uint8Array>, leaf?: Uint8Array): NodeHashing => {
  let sized = nodeHashing !== undefined && (leaf === undefined || leaf.length === 32)
  for (let i = 0; sized && i < roots.length; i++) sized = roots[i]!.length === 32
  const nodes = sized ? nodeHashing! : jsNodes
  nodes.prefix(hashPrefix(hasher))
  return nodes
}

/**
 * The leaf count's binary digits, most significant first: the walks below read its bits ~20 times a
 * committed transaction, and every operation on a bigint makes a new one (the string is one).
 */
const bitsOf = (leaves: bigint): string => leaves.toString(2)
const ONE = "1".charCodeAt(0)

/**
 * The accumulator with `leaf` appended: the leaf becomes the newest frozen root, then the two newest
 * roots merge once per trailing one bit of the old leaf count (a binary carry).
 */
export const appendLeaf = (hasher: AccumulatorHasher, acc: Accumulator, leaf: Uint8Array): Accumulator => {
  const frozen = acc.frozen.slice()
  frozen.push(leaf)
  const bits = bitsOf(acc.leaves)
  if (bits.endsWith("1")) {
    const nodes = nodesFor(hasher, acc.frozen, leaf)
    for (let i = bits.length - 1; i >= 0 && bits.charCodeAt(i) === ONE; i--) {
      const right = frozen.pop()!
      nodes.node(frozen.pop()!, right)
      frozen.push(nodes.digest())
    }
  }
  return { frozen, leaves: acc.leaves + 1n }
}

/**
 * The root: frozen roots combined from the right, each missing right sibling being the placeholder
 * (bits of the leaf count above its lowest set bit decide, as `compute_root_hash` does). The path's
 * digests stay where `NodeHashing` keeps them: the lowest set bit's step hashes the newest frozen root
 * with the placeholder, each step above takes the digest as a child.
 */
export const accumulatorRoot = (hasher: AccumulatorHasher, acc: Accumulator): Uint8Array => {
  if (acc.frozen.length === 0) return ACCUMULATOR_PLACEHOLDER_HASH
  if (acc.frozen.length === 1) return acc.frozen[0]!
  const bits = bitsOf(acc.leaves)
  let i = bits.lastIndexOf("1")
  let next = acc.frozen.length - 1
  const nodes = nodesFor(hasher, acc.frozen)
  nodes.node(acc.frozen[next--]!, ACCUMULATOR_PLACEHOLDER_HASH)
  for (i--; i >= 0; i--)
    if (bits.charCodeAt(i) === ONE) nodes.nodeLeftOfDigest(acc.frozen[next--]!)
    else nodes.nodeRightOfDigest(ACCUMULATOR_PLACEHOLDER_HASH)
  return nodes.digest()
}

/** The root over `leaves` from scratch (an event list, a test). */
export const accumulatorRootOf = (hasher: AccumulatorHasher, leaves: ReadonlyArray<Uint8Array>): Uint8Array => {
  let acc = emptyAccumulator
  for (const leaf of leaves) acc = appendLeaf(hasher, acc, leaf)
  return accumulatorRoot(hasher, acc)
}
