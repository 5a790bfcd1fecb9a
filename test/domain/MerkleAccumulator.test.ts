import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { hashWithPrefix } from "../../src/domain/hash.js"
import {
  ACCUMULATOR_PLACEHOLDER_HASH,
  accumulatorRoot,
  accumulatorRootOf,
  appendLeaf,
  emptyAccumulator
} from "../../src/domain/MerkleAccumulator.js"
import { bytes } from "./arbitraries.js"

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex")

/**
 * An independent model: the complete binary tree of height ⌈log2 n⌉ over the leaves, every empty
 * subtree (at any height) being the placeholder, internal nodes hashed with the hasher's prefix.
 */
const modelRoot = (hasher: string, leaves: ReadonlyArray<Uint8Array>): Uint8Array => {
  const node = (l: Uint8Array, r: Uint8Array) => hashWithPrefix(hasher, Buffer.concat([l, r]))
  const rootAt = (xs: ReadonlyArray<Uint8Array>, height: number): Uint8Array => {
    if (xs.length === 0) return ACCUMULATOR_PLACEHOLDER_HASH
    if (height === 0) return xs[0]!
    const half = 2 ** (height - 1)
    return node(rootAt(xs.slice(0, half), height - 1), rootAt(xs.slice(half), height - 1))
  }
  if (leaves.length === 0) return ACCUMULATOR_PLACEHOLDER_HASH
  return rootAt(leaves, Math.ceil(Math.log2(leaves.length)))
}

describe("MerkleAccumulator", () => {
  it("the placeholder is the ASCII name zero-padded (the reference's literal hash)", () => {
    expect(hex(ACCUMULATOR_PLACEHOLDER_HASH)).toBe("414343554d554c41544f525f504c414345484f4c4445525f4841534800000000")
    expect(accumulatorRoot("EventAccumulator", emptyAccumulator)).toEqual(ACCUMULATOR_PLACEHOLDER_HASH)
  })

  it("appending leaf by leaf gives the root of the complete tree padded with placeholders", () =>
    fc.assert(
      fc.property(
        fc.array(bytes(32), { maxLength: 70 }),
        fc.constantFrom("TransactionAccumulator", "EventAccumulator"),
        (leaves, hasher) => {
          let acc = emptyAccumulator
          for (const [i, leaf] of leaves.entries()) {
            acc = appendLeaf(hasher as "EventAccumulator", acc, leaf)
            expect(hex(accumulatorRoot(hasher as "EventAccumulator", acc))).toBe(
              hex(modelRoot(hasher, leaves.slice(0, i + 1)))
            )
          }
          // One frozen subtree per set bit of the leaf count.
          expect(acc.frozen.length).toBe(leaves.length.toString(2).replace(/0/g, "").length)
          expect(accumulatorRootOf(hasher as "EventAccumulator", leaves)).toEqual(
            accumulatorRoot(hasher as "EventAccumulator", acc)
          )
        }
      ),
      { numRuns: 60 }
    ))

  it("the two hashers give different roots over the same leaves", () => {
    const leaves = [new Uint8Array(32).fill(1), new Uint8Array(32).fill(2)]
    expect(accumulatorRootOf("EventAccumulator", leaves)).not.toEqual(
      accumulatorRootOf("TransactionAccumulator", leaves)
    )
  })

  it("any leaf count, small or past 2^53 (numbers, then bigints), gives the reference's fold over the frozen roots", () => {
    // The reference's `compute_root_hash` walk with bigints throughout, over frozen roots that are
    // arbitrary hashes: the count's set bits say which levels have one.
    const node = (hasher: string, l: Uint8Array, r: Uint8Array) => hashWithPrefix(hasher, Buffer.concat([l, r]))
    const foldRoot = (hasher: string, frozen: ReadonlyArray<Uint8Array>, leaves: bigint): Uint8Array => {
      if (frozen.length === 0) return ACCUMULATOR_PLACEHOLDER_HASH
      if (frozen.length === 1) return frozen[0]!
      let bits = leaves
      while ((bits & 1n) === 0n) bits >>= 1n
      let current = ACCUMULATOR_PLACEHOLDER_HASH
      let next = frozen.length - 1
      for (; bits > 0n; bits >>= 1n)
        current =
          (bits & 1n) === 1n
            ? node(hasher, frozen[next--]!, current)
            : node(hasher, current, ACCUMULATOR_PLACEHOLDER_HASH)
      return current
    }
    const ones = (n: bigint) => n.toString(2).replace(/0/g, "").length
    fc.assert(
      fc.property(
        fc.oneof(fc.bigInt({ min: 1n, max: 2n ** 53n }), fc.bigInt({ min: 2n ** 53n - 64n, max: 2n ** 64n - 2n })),
        fc.constantFrom("TransactionAccumulator", "EventAccumulator"),
        fc.infiniteStream(bytes(32)),
        (leaves, hasher, hashes) => {
          const h = hasher as "EventAccumulator"
          const frozen = [...hashes.take(ones(leaves))]
          const acc = { frozen, leaves }
          expect(hex(accumulatorRoot(h, acc))).toBe(hex(foldRoot(hasher, frozen, leaves)))
          // One more leaf: the carry merges a frozen root per trailing one bit, as with bigints.
          const leaf = new Uint8Array(32).fill(9)
          const after = appendLeaf(h, acc, leaf)
          expect(after.leaves).toBe(leaves + 1n)
          expect(after.frozen.length).toBe(ones(leaves + 1n))
          const merged: Uint8Array[] = [...frozen, leaf]
          for (let n = leaves; (n & 1n) === 1n; n >>= 1n) {
            const right = merged.pop()!
            const left = merged.pop()!
            merged.push(node(hasher, left, right))
          }
          expect(after.frozen.map(hex)).toEqual(merged.map(hex))
          expect(hex(accumulatorRoot(h, after))).toBe(hex(foldRoot(hasher, merged, leaves + 1n)))
        }
      ),
      { numRuns: 200 }
    )
  })

  it("roots that are not 32 bytes (no hash makes one, but the type allows it) go the general way", () => {
    const odd = { frozen: [new Uint8Array(31).fill(1), new Uint8Array(33).fill(2)], leaves: 3n }
    const expected = hashWithPrefix(
      "EventAccumulator",
      Buffer.concat([
        odd.frozen[0]!,
        hashWithPrefix("EventAccumulator", Buffer.concat([odd.frozen[1]!, ACCUMULATOR_PLACEHOLDER_HASH]))
      ])
    )
    expect(hex(accumulatorRoot("EventAccumulator", odd))).toBe(hex(expected))
  })
})
