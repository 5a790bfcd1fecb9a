import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { fromHex, toHex, toHex0x, toShortHex0x } from "../../src/bcs/index.js"

/** The plain definition the fast paths must equal: two lowercase digits per byte. */
const reference = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")

/** Any bytes, sometimes a view at an offset of a larger buffer, sometimes past the 2 KB scratch. */
const anyBytes = fc.oneof(
  fc.uint8Array({ maxLength: 300 }),
  fc
    .tuple(fc.uint8Array({ minLength: 1, maxLength: 300 }), fc.nat(), fc.nat())
    .map(([b, x, y]) => b.subarray(x % b.length, (x % b.length) + (y % (b.length - (x % b.length) + 1)))),
  fc.uint8Array({ minLength: 2040, maxLength: 2100 })
)

describe("hex", () => {
  it("round-trips any bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 256 }), (bytes) => {
        expect(fromHex(toHex(bytes))).toEqual(bytes)
        expect(fromHex(toHex0x(bytes).toUpperCase().replace("0X", "0x"))).toEqual(bytes)
      })
    )
  })

  it("writes two lowercase digits per byte, prefixed or not, on either side of the scratch's size", () => {
    fc.assert(
      fc.property(anyBytes, (bytes) => {
        expect(toHex(bytes)).toBe(reference(bytes))
        expect(toHex0x(bytes)).toBe(`0x${reference(bytes)}`)
      }),
      { numRuns: 300 }
    )
    for (const n of [0, 1, 2047, 2048, 2049, 5000]) {
      const b = Uint8Array.from({ length: n }, (_, i) => (i * 37) & 0xff)
      expect(toHex0x(b), `length ${n}`).toBe(`0x${reference(b)}`)
    }
  })

  it("writes the short form without leading zeros, 0x0 for zeros only", () => {
    fc.assert(
      fc.property(anyBytes, (bytes) => {
        const long = reference(bytes).replace(/^0+/, "")
        expect(toShortHex0x(bytes)).toBe(`0x${long === "" ? "0" : long}`)
      }),
      { numRuns: 300 }
    )
    expect(toShortHex0x(new Uint8Array(32))).toBe("0x0")
    expect(toShortHex0x(Uint8Array.of(0, 0, 1))).toBe("0x1")
    expect(toShortHex0x(Uint8Array.of(0, 0x0a, 0xbc))).toBe("0xabc")
    expect(toShortHex0x(Uint8Array.of(0x10, 0))).toBe("0x1000")
    // Every first non-zero byte: one digit below 0x10, two from it.
    for (let b = 1; b < 256; b++) {
      const digits = b.toString(16)
      expect(toShortHex0x(Uint8Array.of(0, b, 0x05)), `first byte ${b}`).toBe(`0x${digits}05`)
    }
  })

  it("a string written after another does not change it (the scratch is reused)", () => {
    const a = toHex0x(Uint8Array.of(1, 2, 3))
    toHex0x(Uint8Array.of(0xff, 0xff, 0xff, 0xff))
    expect(a).toBe("0x010203")
  })

  it("rejects odd length and non-hex digits without throwing", () => {
    expect(fromHex("abc")).toBeUndefined()
    expect(fromHex("0xzz")).toBeUndefined()
    fc.assert(fc.property(fc.string(), (s) => void fromHex(s)))
  })
})
