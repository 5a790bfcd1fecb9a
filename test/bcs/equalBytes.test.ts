/**
 * `equalBytes` answers as a byte-by-byte comparison for any two arrays — short ones (its own loop)
 * and long ones (the platform's memcmp), views into larger buffers at any offset included.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { equalBytes } from "../../src/bcs/index.js"

const naive = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i])

/** `bytes` as a view at `offset` into a larger buffer. */
const viewOf = (bytes: Uint8Array, offset: number): Uint8Array => {
  const buffer = new Uint8Array(bytes.length + offset + 3)
  buffer.set(bytes, offset)
  return buffer.subarray(offset, offset + bytes.length)
}

describe("equalBytes", () => {
  it("is a byte-by-byte comparison, for any lengths and offsets", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.nat({ max: 299 }),
        fc.integer({ min: 0, max: 255 }),
        fc.nat({ max: 7 }),
        fc.nat({ max: 7 }),
        (bytes, at, value, o1, o2) => {
          const a = viewOf(bytes, o1)
          const same = viewOf(bytes, o2)
          expect(equalBytes(a, same)).toBe(true)
          const changed = viewOf(bytes, o2)
          if (bytes.length > 0) changed[at % bytes.length] = value
          expect(equalBytes(a, changed)).toBe(naive(bytes, changed))
          expect(equalBytes(a, viewOf(bytes.subarray(1), o2))).toBe(naive(bytes, bytes.subarray(1)))
        }
      ),
      { numRuns: 500 }
    )
  })

  it("compares long arrays differing only in their last byte, and the same array with itself", () => {
    const a = new Uint8Array(10_000).fill(7)
    const b = a.slice()
    expect(equalBytes(a, b)).toBe(true)
    b[9_999] = 8
    expect(equalBytes(a, b)).toBe(false)
    expect(equalBytes(a, a)).toBe(true)
  })
})
