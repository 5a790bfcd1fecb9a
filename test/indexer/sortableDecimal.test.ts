/**
 * `sortableDecimal`: the text SQLite keeps for a `numeric` cell. Checked as properties over
 * decimals up to the 40 integer and 40 fraction digits a cell may hold, negatives included: two
 * encodings compare as bytes (SQLite's BINARY collation) as their numbers do, each decodes to the
 * canonical decimal it came from, and it is no longer than the number's text plus four characters.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { canonicalDecimal, fromSortableDecimal, sortableDecimal } from "../../src/indexer/store/values.js"

/** A canonical decimal: an integer part of 1–40 digits and a fraction of 0–40, either sign. */
const decimal = fc
  .tuple(
    fc.boolean(),
    fc.stringMatching(/^[0-9]{1,40}$/),
    fc.oneof(fc.constant(""), fc.stringMatching(/^[0-9]{1,40}$/)),
    // Small numbers, and numbers sharing a prefix, are where orders break: weight them.
    fc.oneof(fc.constant(0), fc.constant(1), fc.constant(2))
  )
  .map(([negative, int, fraction, shape]) => {
    const i = shape === 0 ? int : shape === 1 ? int.slice(0, 2) : `1${"0".repeat(int.length % 5)}`
    const text = `${negative ? "-" : ""}${i}${fraction === "" ? "" : `.${fraction}`}`
    return canonicalDecimal(text)!
  })

/** Exact comparison of two canonical decimals (scaled to integers). */
const compareDecimals = (a: string, b: string): number => {
  const scaled = (d: string): bigint => {
    const negative = d.startsWith("-")
    const [int, fraction = ""] = (negative ? d.slice(1) : d).split(".")
    const v = BigInt(int! + fraction.padEnd(40, "0"))
    return negative ? -v : v
  }
  const x = scaled(a)
  const y = scaled(b)
  return x < y ? -1 : x > y ? 1 : 0
}

const compareBytes = (a: string, b: string): number => Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b)))

describe("sortableDecimal", () => {
  it("orders as the numbers do, byte for byte", () => {
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        expect(compareBytes(sortableDecimal(a), sortableDecimal(b))).toBe(compareDecimals(a, b))
      }),
      { numRuns: 3000 }
    )
  })

  it("decodes to the canonical decimal it encodes, and is as short as the number", () => {
    fc.assert(
      fc.property(decimal, (d) => {
        const encoded = sortableDecimal(d)
        expect(fromSortableDecimal(encoded)).toBe(d)
        expect(encoded.length).toBeLessThanOrEqual(d.length + 4)
      }),
      { numRuns: 2000 }
    )
  })

  it("orders the cases an order can break on", () => {
    const ascending = [
      "-100",
      "-10.5",
      "-9",
      "-1.55",
      "-1.5",
      "-1",
      "-0.5",
      "0",
      "0.5",
      "1",
      "1.5",
      "1.55",
      "9",
      "10.5",
      "100"
    ]
    const encoded = ascending.map(sortableDecimal)
    expect([...encoded].sort((a, b) => compareBytes(a, b))).toEqual(encoded)
    expect(sortableDecimal("0")).toBe("1010")
    expect(sortableDecimal("61")).toBe("10261")
  })
})
