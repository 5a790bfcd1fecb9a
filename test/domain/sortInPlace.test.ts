import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import { sortInPlace } from "../../src/domain/sortInPlace.js"

describe("sortInPlace", () => {
  it("orders as the built-in (stable) sort, in place, below and above the insertion-sort bound", () => {
    // Few distinct keys: equal elements are common, so stability shows.
    const item = fc.record({ key: fc.integer({ min: 0, max: 4 }), id: fc.nat() })
    fc.assert(
      fc.property(fc.array(item, { maxLength: 70 }), (items) => {
        const compare = (a: { key: number }, b: { key: number }) => a.key - b.key
        const expected = [...items].sort(compare)
        const copy = [...items]
        const out = sortInPlace(copy, compare)
        assert.strictEqual(out, copy)
        assert.deepStrictEqual(out, expected)
      })
    )
  })
})
