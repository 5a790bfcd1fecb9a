import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { u64LeAt } from "../../src/bcs/u64LeAt.js"

describe("u64LeAt", () => {
  it("reads what a DataView reads, at any offset, on either side of 2^53", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 8, maxLength: 80 }), fc.nat(), (bytes, n) => {
        const at = n % (bytes.length - 7)
        const want = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(at, true)
        expect(u64LeAt(bytes, at)).toBe(want)
      }),
      { numRuns: 500 }
    )
    for (const v of [0n, 1n, (1n << 53n) - 1n, 1n << 53n, (1n << 64n) - 1n]) {
      const b = new Uint8Array(8)
      new DataView(b.buffer).setBigUint64(0, v, true)
      expect(u64LeAt(b, 0)).toBe(v)
    }
  })

  it("refuses a read past either end", () => {
    expect(() => u64LeAt(new Uint8Array(7), 0)).toThrow(RangeError)
    expect(() => u64LeAt(new Uint8Array(16), 9)).toThrow(RangeError)
    expect(() => u64LeAt(new Uint8Array(16), -1)).toThrow(RangeError)
  })
})
