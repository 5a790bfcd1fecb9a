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
})
