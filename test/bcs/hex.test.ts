import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { fromHex, toHex, toHex0x } from "../../src/bcs/index.js"

describe("hex", () => {
  it("round-trips any bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 256 }), (bytes) => {
        expect(fromHex(toHex(bytes))).toEqual(bytes)
        expect(fromHex(toHex0x(bytes).toUpperCase().replace("0X", "0x"))).toEqual(bytes)
      })
    )
  })
  it("rejects odd length and non-hex digits without throwing", () => {
    expect(fromHex("abc")).toBeUndefined()
    expect(fromHex("0xzz")).toBeUndefined()
    fc.assert(fc.property(fc.string(), (s) => void fromHex(s)))
  })
})
