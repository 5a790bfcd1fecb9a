import fc from "fast-check"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import {
  addressFromNumber,
  addressToLongString,
  addressToShortString,
  parseAddress
} from "../../src/domain/AccountAddress.js"

const parsed = (s: string) => Result.getOrUndefined(parseAddress(s))

describe("AccountAddress", () => {
  it("parses relaxed AIP-40 forms: with or without 0x, 1 to 64 digits, either case", () => {
    for (const s of ["0x1", "1", "0x01", "0X1", "0x" + "0".repeat(63) + "1"]) {
      expect(parsed(s)).toEqual(addressFromNumber(1))
    }
    expect(addressToShortString(parsed("0xA550C18")!)).toBe("0xa550c18")
  })

  it("rejects empty, too long, non-hex and doubled prefixes", () => {
    for (const s of ["", "0x", "0x" + "1".repeat(65), "xyz", "0x0x12", "0x12g", " 0x1", "0x-1"]) {
      expect(Result.isFailure(parseAddress(s)), s).toBe(true)
    }
  })

  it("prints short (leading zeros stripped) and long forms that parse back", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
        expect(parsed(addressToShortString(bytes))).toEqual(bytes)
        expect(parsed(addressToLongString(bytes))).toEqual(bytes)
      })
    )
    expect(addressToShortString(new Uint8Array(32))).toBe("0x0")
  })

  it("prints the short form as the long form without its leading zeros", () => {
    // Addresses with long zero prefixes (0x1, 0xa, 0xa550c18 …) are the common case.
    const address = fc
      .tuple(fc.nat({ max: 32 }), fc.uint8Array({ minLength: 32, maxLength: 32 }))
      .map(([zeros, bytes]) => bytes.map((b, i) => (i < zeros ? 0 : b)))
    fc.assert(
      fc.property(address, (bytes) => {
        const digits = addressToLongString(bytes).slice(2).replace(/^0+/, "")
        expect(addressToShortString(bytes)).toBe("0x" + (digits === "" ? "0" : digits))
      })
    )
  })

  it("never throws on garbage", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        parseAddress(s)
      })
    )
  })
})
