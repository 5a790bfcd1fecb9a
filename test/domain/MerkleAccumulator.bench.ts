/**
 * The transaction accumulator as each commit uses it (docs/benchmarks.md, session 59): one leaf
 * appended and the root taken after it, at ~100,000 leaves (~17 node hashes a transaction). Ours
 * (`MerkleAccumulator.ts`: the path's digests kept in the WebAssembly memory, the leaf count walked
 * as a number) against the same fold with each node hashed by node:crypto's one-shot hash and by
 * @noble/hashes, a new array a node (what ours did before session 59, with bigint bit tests, is the
 * fold over `sha3Concat`).
 * Run: npx vitest bench --run test/domain/MerkleAccumulator.bench.ts
 */
import { hash } from "node:crypto"
import { sha3_256 } from "@noble/hashes/sha3.js"
import { test } from "vitest"
import { hashPrefix, sha3Concat } from "../../src/domain/hash.js"
import {
  ACCUMULATOR_PLACEHOLDER_HASH,
  type Accumulator,
  accumulatorRoot,
  appendLeaf,
  emptyAccumulator
} from "../../src/domain/MerkleAccumulator.js"

const prefix = hashPrefix("TransactionAccumulator")
const leaf = Uint8Array.from({ length: 32 }, (_, i) => i)

/** The accumulator's two walks with `node` hashing each internal node (bigint bit tests, as the reference's). */
const foldWith = (node: (left: Uint8Array, right: Uint8Array) => Uint8Array) => ({
  append: (acc: Accumulator, l: Uint8Array): Accumulator => {
    const frozen = acc.frozen.slice()
    frozen.push(l)
    for (let n = acc.leaves; (n & 1n) === 1n; n >>= 1n) {
      const right = frozen.pop()!
      frozen.push(node(frozen.pop()!, right))
    }
    return { frozen, leaves: acc.leaves + 1n }
  },
  root: (acc: Accumulator): Uint8Array => {
    if (acc.frozen.length <= 1) return acc.frozen[0] ?? ACCUMULATOR_PLACEHOLDER_HASH
    let bits = acc.leaves
    while ((bits & 1n) === 0n) bits >>= 1n
    let current = ACCUMULATOR_PLACEHOLDER_HASH
    let next = acc.frozen.length - 1
    for (; bits > 0n; bits >>= 1n)
      current = (bits & 1n) === 1n ? node(acc.frozen[next--]!, current) : node(current, ACCUMULATOR_PLACEHOLDER_HASH)
    return current
  }
})

const joined = new Uint8Array(96)
const viaJoined = (h: (b: Uint8Array) => Uint8Array) => (left: Uint8Array, right: Uint8Array) => {
  joined.set(prefix, 0)
  joined.set(left, 32)
  joined.set(right, 64)
  return h(joined)
}
const generic = foldWith((left, right) => sha3Concat(prefix, left, right))
const nodeCrypto = foldWith(viaJoined((b) => hash("sha3-256", b, "buffer") as unknown as Uint8Array))
const noble = foldWith(viaJoined((b) => sha3_256(b)))

// ~100,000 leaves, with a long run of set bits below the top (so every walk is ~17 levels).
let start = emptyAccumulator
for (let i = 0; i < 100_000; i++) start = appendLeaf("TransactionAccumulator", start, leaf)

const run = (append: (a: Accumulator, l: Uint8Array) => Accumulator, root: (a: Accumulator) => Uint8Array) => {
  let acc = start
  return () => {
    acc = append(acc, leaf)
    root(acc)
    if (acc.leaves > 110_000n) acc = start
  }
}

test("a commit's accumulator step: append a transaction's info hash, then the root (~100,000 leaves)", async ({
  bench
}) => {
  await bench.compare(
    bench(
      "movenode appendLeaf + accumulatorRoot",
      run(
        (a, l) => appendLeaf("TransactionAccumulator", a, l),
        (a) => accumulatorRoot("TransactionAccumulator", a)
      )
    ),
    bench("the same fold over sha3Concat, bigint bits (before session 59)", run(generic.append, generic.root)),
    bench("the same fold over node:crypto hash('sha3-256')", run(nodeCrypto.append, nodeCrypto.root)),
    bench("the same fold over @noble/hashes sha3_256", run(noble.append, noble.root)),
    { time: 1_500 }
  )
})
