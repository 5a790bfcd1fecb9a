/**
 * `jsonbText`: the text PostgreSQL prints for a jsonb value, which the embedded store keeps so that
 * both stores answer alike. Checked as properties: it is JSON meaning the same value, and every
 * object's keys come in jsonb's order (shorter first, then by UTF-8 bytes), non-ASCII keys included.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { jsonbText } from "../../src/indexer/store/values.js"

const utf8 = (s: string) => Buffer.from(s, "utf8")
const jsonbOrder = (a: string, b: string) => {
  const x = utf8(a)
  const y = utf8(b)
  return x.length !== y.length ? x.length - y.length : Buffer.compare(x, y)
}

/**
 * Every object's keys in the text, in the order written (a JS object would put integer-like keys
 * first, so the text is scanned: a string followed by ":" is a key).
 */
const keyRuns = (text: string): Array<Array<string>> => {
  const runs: Array<Array<string>> = []
  const open: Array<Array<string>> = []
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === "{") open.push([])
    else if (c === "}") runs.push(open.pop()!)
    else if (c === '"') {
      let j = i + 1
      while (text[j] !== '"') j += text[j] === "\\" ? 2 : 1
      const literal = text.slice(i, j + 1)
      i = j
      if (text[j + 1] === ":") open[open.length - 1]!.push(JSON.parse(literal) as string)
    }
  }
  return runs
}

const keyArb = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("a", "é", "\u{1F600}", "\uE000", "Z", "_", "aa"))
const jsonArb = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.string({ maxLength: 8 }),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(keyArb, tie("value"), { maxKeys: 24 })
  )
})).value

describe("jsonbText", () => {
  it("is JSON for the same value", () => {
    fc.assert(
      fc.property(jsonArb, (v) => {
        expect(JSON.parse(jsonbText(v))).toEqual(v)
      }),
      { numRuns: 500 }
    )
  })

  it("orders every object's keys as jsonb does: shorter first, then by UTF-8 bytes", () => {
    fc.assert(
      fc.property(jsonArb, (v) => {
        for (const keys of keyRuns(jsonbText(v))) expect(keys).toEqual([...keys].sort(jsonbOrder))
      }),
      { numRuns: 500 }
    )
    // Integer-like keys would be reordered by JS objects themselves; the text keeps jsonb's order.
    expect(jsonbText({ b: 1, aa: 2, a: 3, "\uE000": 4, "\u{1F600}": 5, é: 6 })).toBe(
      '{"a": 3, "b": 1, "aa": 2, "é": 6, "\uE000": 4, "\u{1F600}": 5}'
    )
  })

  it("leaves out undefined members, writes bigints as numbers and non-finite numbers as null", () => {
    expect(jsonbText({ a: undefined, b: 10n ** 30n, c: [Number.NaN, undefined] })).toBe(
      '{"b": 1000000000000000000000000000000, "c": [null, null]}'
    )
  })
})
