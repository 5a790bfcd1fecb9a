import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { BcsWriter } from "../../src/bcs/index.js"
import { slabBytes, slabCopy } from "../../src/bcs/slabBytes.js"

/** Whether two arrays' bytes overlap in memory (same buffer, intersecting ranges). */
const overlap = (a: Uint8Array, b: Uint8Array): boolean =>
  a.buffer === b.buffer && a.byteOffset < b.byteOffset + b.byteLength && b.byteOffset < a.byteOffset + a.byteLength

describe("slabBytes", () => {
  it("hands out zero-filled arrays of the length asked, no two sharing a byte, each keeping what was written to it", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 9000 }), { maxLength: 60 }), (lengths) => {
        const got = lengths.map((n, i) => {
          const a = slabBytes(n)
          expect(a.length).toBe(n)
          expect(a.every((b) => b === 0)).toBe(true)
          a.fill((i % 255) + 1)
          return a
        })
        for (let i = 0; i < got.length; i++) {
          expect(got[i]!.every((b) => b === (i % 255) + 1)).toBe(true)
          for (let j = i + 1; j < got.length; j++) expect(overlap(got[i]!, got[j]!)).toBe(false)
        }
      }),
      { numRuns: 100 }
    )
  })

  it("keeps short arrays in V8's heap and long ones in buffers of their own; slab arrays start 8-byte aligned", () => {
    expect(slabBytes(64).byteOffset).toBe(0)
    expect(slabBytes(64).buffer.byteLength).toBe(64)
    expect(slabBytes(5000).buffer.byteLength).toBe(5000)
    for (const n of [65, 100, 301, 4096]) expect(slabBytes(n).byteOffset % 8).toBe(0)
  })

  it("copies: slabCopy and BcsWriter.toSlabBytes hold the bytes as written, unaffected by later writes", () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 5000 }), { maxLength: 20 }), (parts) => {
        const w = new BcsWriter(16)
        const copies = parts.map((p) => {
          w.reset().fixed(p)
          return { want: Uint8Array.from(p), a: slabCopy(p), b: w.toSlabBytes() }
        })
        w.reset().fixed(new Uint8Array(6000).fill(7))
        for (const { want, a, b } of copies) {
          expect(a).toEqual(want)
          expect(b).toEqual(want)
        }
      }),
      { numRuns: 50 }
    )
  })
})
