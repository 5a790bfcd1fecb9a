import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import { compareKeyBytes, sortByKeyBytes } from "../../src/domain/WriteSetCodec.js"

describe("sortByKeyBytes", () => {
  it("orders as the built-in sort by compareKeyBytes, in place, below and above the insertion-sort bound", () => {
    // Short keys over a small alphabet: prefixes and equal keys are common.
    const key = fc.uint8Array({ maxLength: 4 }).map((a) => a.map((x) => x % 3))
    fc.assert(
      fc.property(fc.array(fc.record({ key, id: fc.nat() }), { maxLength: 70 }), (items) => {
        const expected = [...items].sort((x, y) => compareKeyBytes(x.key, y.key)).map((x) => x.key.join(","))
        const copy = [...items]
        const out = sortByKeyBytes(copy, (x) => x.key)
        assert.strictEqual(out, copy)
        assert.deepStrictEqual(
          out.map((x) => x.key.join(",")),
          expected
        )
        // The same items, each once.
        assert.sameMembers(out, items)
      })
    )
  })
})
