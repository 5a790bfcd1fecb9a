/**
 * The Move binary reader's fixed-width integers (`ByteCursor`'s, shared with `BcsReader`: composed
 * from bytes, a DataView only for u64) against DataView, at any offset of a subarray, and the
 * section end as the bound: a read past it fails UnexpectedEof even where the buffer goes on.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { BinaryCursor } from "../../../src/move/binary/BinaryCursor.js"
import { BinaryFailure } from "../../../src/move/binary/BinaryError.js"

describe("BinaryCursor fixed-width integers", () => {
  it("reads u8, u16, u32, u64, u128 as DataView does, at any offset, in a subarray", () =>
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 38, maxLength: 64 }), fc.integer({ min: 0, max: 7 }), (raw, pad) => {
        const outer = new Uint8Array(raw.length + 3)
        outer.set(raw, 3)
        const bytes = outer.subarray(3)
        const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
        const c = new BinaryCursor(bytes, pad, bytes.length, 7)
        expect(c.u8()).toBe(dv.getUint8(pad))
        expect(c.u16()).toBe(dv.getUint16(pad + 1, true))
        expect(c.u32()).toBe(dv.getUint32(pad + 3, true))
        expect(c.u64()).toBe(dv.getBigUint64(pad + 7, true))
        expect(c.u128()).toBe(dv.getBigUint64(pad + 15, true) | (dv.getBigUint64(pad + 23, true) << 64n))
        expect(c.offset).toBe(pad + 31)
      })
    ))

  it("stops at the section's end, not the buffer's", () => {
    const bytes = new Uint8Array(16).fill(0xff)
    for (const [read, width] of [
      [(c: BinaryCursor) => c.u16(), 2],
      [(c: BinaryCursor) => c.u32(), 4],
      [(c: BinaryCursor) => c.u64(), 8]
    ] as const) {
      const c = new BinaryCursor(bytes, 2, 2 + width - 1, 7)
      let thrown: unknown
      try {
        read(c)
      } catch (e) {
        thrown = e
      }
      expect(thrown).toBeInstanceOf(BinaryFailure)
      expect((thrown as BinaryFailure).kind).toBe("UnexpectedEof")
      expect(c.offset).toBe(2)
    }
  })
})
