/**
 * `standardAddress` (the reference's `standardize_address`) keeps short forms it has seen: whatever
 * it was given before, and in whatever order, its answer is the definition's — `0x` + 64 lowercase
 * digits for an address in any form, undefined for anything else.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { standardAddress } from "../../../src/indexer/processors/rows.js"

/** The definition, from scratch: hex digits (either case) after an optional 0x, at most 64 of them. */
const definition = (text: string): string | undefined => {
  const m = /^(?:0[xX])?([0-9a-fA-F]{1,64})$/.exec(text)
  return m === null ? undefined : `0x${m[1]!.toLowerCase().padStart(64, "0")}`
}

const hexDigits = (min: number, max: number) =>
  fc.array(fc.constantFrom(..."0123456789abcdefABCDEF"), { minLength: min, maxLength: max }).map((d) => d.join(""))
const addressText = fc.oneof(
  hexDigits(1, 64).map((h) => `0x${h}`),
  hexDigits(1, 64).map((h) => `0x${h.toLowerCase()}`),
  hexDigits(64, 64).map((h) => `0x${h.toLowerCase()}`),
  fc.constantFrom("0x1", "0xa", "0x0", "0xA", "0x00000000000000000000000000000000000000000000000000000000000000a")
)
const garbage = fc.oneof(
  fc.string(),
  hexDigits(65, 70).map((h) => `0x${h}`),
  fc.constantFrom("", "0x", "0xg", "1x1", " 0x1", "0x1 ")
)

describe("standardAddress", () => {
  it("answers the definition for addresses and garbage, whatever came before", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(addressText, garbage), { minLength: 1, maxLength: 40 }), (texts) => {
        for (const t of [...texts, ...texts]) expect(standardAddress(t), t).toBe(definition(t))
      }),
      { numRuns: 300 }
    )
  })

  it("stays right past its memo's bound", () => {
    for (let i = 0; i < 10_000; i++) {
      const t = `0x${i.toString(16)}`
      expect(standardAddress(t)).toBe(definition(t))
    }
    expect(standardAddress("0x1")).toBe(`0x${"1".padStart(64, "0")}`)
  })
})
