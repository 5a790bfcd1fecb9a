/**
 * Fixed-width integers as BCS writes them (little-endian), checked against DataView (the reader and
 * writer compose bytes themselves for u16/u32 and make a DataView only for u64), at every offset
 * and in subarrays of a larger buffer; truncated input fails with a BcsError.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { BcsError, BcsReader, BcsWriter } from "../../src/bcs/index.js"

describe("BcsReader / BcsWriter fixed-width integers", () => {
  it("write and read u8, u16, u32, u64, u128 as DataView does, at any offset, in a subarray", () =>
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 7 }),
        fc.integer({ min: 0, max: 0xffff }),
        fc.nat({ max: 0xffffffff }),
        fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        fc.bigInt({ min: 0n, max: 2n ** 128n - 1n }),
        (pad, a, b, c, d) => {
          const w = new BcsWriter(1) // grows several times: the u64 view follows the new buffer
          for (let i = 0; i < pad; i++) w.u8(0xee)
          w.u16(a).u32(b).u64(c).u128(d).u16(a).u64(c)
          const bytes = w.toBytes()
          const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
          expect(dv.getUint16(pad, true)).toBe(a)
          expect(dv.getUint32(pad + 2, true)).toBe(b)
          expect(dv.getBigUint64(pad + 6, true)).toBe(c)
          // Read back from inside a larger buffer (a subarray with a non-zero byteOffset).
          const outer = new Uint8Array(bytes.length + 13).fill(0x55)
          outer.set(bytes, 5)
          const r = new BcsReader(outer.subarray(5, 5 + bytes.length))
          for (let i = 0; i < pad; i++) expect(r.u8()).toBe(0xee)
          expect([r.u16(), r.u32(), r.u64(), r.u128(), r.u16(), r.u64()]).toEqual([a, b, c, d, a, c])
          r.expectEnd()
        }
      )
    ))

  it("wraps u16/u32 as DataView's setters do", () => {
    const w = new BcsWriter()
      .u16(-1)
      .u16(0x12345)
      .u32(-1)
      .u32(2 ** 32 + 7)
      .u16(1.9)
    expect(Array.from(w.toBytes())).toEqual([0xff, 0xff, 0x45, 0x23, 0xff, 0xff, 0xff, 0xff, 7, 0, 0, 0, 1, 0])
  })

  it("fails on truncated integers with a BcsError", () => {
    for (const [n, read] of [
      [1, (r: BcsReader) => r.u16()],
      [3, (r: BcsReader) => r.u32()],
      [7, (r: BcsReader) => r.u64()]
    ] as const)
      expect(() => read(new BcsReader(new Uint8Array(n)))).toThrow(BcsError)
  })
})

describe("BcsReader.optionTag", () => {
  it("reads 0 as None and 1 as Some; any other byte fails at the tag's offset", () =>
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 4 }), (tag, pad) => {
        const r = new BcsReader(new Uint8Array([...new Array(pad).fill(0), tag]))
        r.offset = pad
        if (tag <= 1) {
          expect(r.optionTag()).toBe(tag === 1)
          expect(r.offset).toBe(pad + 1)
        } else {
          expect(() => r.optionTag()).toThrow(new BcsError(`invalid option tag ${tag}`, pad))
          expect(r.offset).toBe(pad)
        }
      })
    ))

  it("fails on an empty input with a BcsError", () => {
    expect(() => new BcsReader(new Uint8Array(0)).optionTag()).toThrow(BcsError)
  })
})

describe("BcsReader strings", () => {
  const encode = (s: string) => new BcsWriter().string(s).toBytes()

  it("reads back what BcsWriter wrote, short ASCII (kept and reused), longer and non-ASCII, in any order", () =>
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string({ maxLength: 40 }),
            fc.constantFrom("coin", "CoinStore", "fungible_asset", "FungibleStore", "a", ""),
            fc.string({ unit: "grapheme", maxLength: 10 }),
            fc.string({ minLength: 60, maxLength: 300 })
          ),
          { maxLength: 60 }
        ),
        (strings) => {
          // Twice over: the second pass reads the same bytes through the table of kept strings.
          for (let pass = 0; pass < 2; pass++)
            for (const s of strings) expect(new BcsReader(encode(s)).string()).toBe(s)
          const w = new BcsWriter()
          for (const s of strings) w.string(s)
          const r = new BcsReader(w.toBytes())
          expect(strings.map(() => r.string())).toEqual(strings)
          r.expectEnd()
        }
      ),
      { numRuns: 300 }
    ))

  it("never answers a kept string for other bytes: 5,000 distinct identifiers through 1,024 slots", () => {
    const names = Array.from({ length: 5000 }, (_, i) => `name_${i.toString(36)}`)
    for (let round = 0; round < 3; round++) for (const s of names) expect(new BcsReader(encode(s)).string()).toBe(s)
    // Same length, same bytes but one: different strings.
    expect(new BcsReader(encode("abcdefgh")).string()).toBe("abcdefgh")
    expect(new BcsReader(encode("abcdefgi")).string()).toBe("abcdefgi")
  })

  it("fails on a truncated string or invalid UTF-8 with a BcsError, at the string's start", () => {
    const truncated = encode("identifier").subarray(0, 5)
    expect(() => new BcsReader(truncated).string()).toThrow(BcsError)
    const bad = Uint8Array.of(2, 0xc3, 0x28)
    const r = new BcsReader(bad)
    expect(() => r.string()).toThrow(/invalid UTF-8/)
    expect(r.offset).toBe(0)
  })
})
