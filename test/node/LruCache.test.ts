import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import { LruCache } from "../../src/node/LruCache.js"

describe("LruCache", () => {
  it("evicts the least recently used entry past its capacity", () => {
    const c = new LruCache<string, number>(2)
    c.set("a", 1)
    c.set("b", 2)
    assert.strictEqual(c.get("a"), 1) // a is now the most recent
    c.set("c", 3)
    assert.isFalse(c.has("b"))
    assert.strictEqual(c.get("a"), 1)
    assert.strictEqual(c.get("c"), 3)
    assert.strictEqual(c.size, 2)
  })

  it("matches a list model of recency under any sequence of operations", () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant("get" as const), key: fc.integer({ min: 0, max: 9 }) }),
      fc.record({ kind: fc.constant("set" as const), key: fc.integer({ min: 0, max: 9 }), value: fc.integer() })
    )
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(op, { maxLength: 60 }), (capacity, ops) => {
        const cache = new LruCache<number, number>(capacity)
        let model: Array<[number, number]> = [] // most recent last
        for (const o of ops) {
          const i = model.findIndex(([k]) => k === o.key)
          if (o.kind === "get") {
            const expected = i >= 0 ? model[i]![1] : undefined
            if (i >= 0) model = [...model.slice(0, i), ...model.slice(i + 1), model[i]!]
            if (cache.get(o.key) !== expected) return false
          } else {
            if (i >= 0) model.splice(i, 1)
            model.push([o.key, o.value])
            if (model.length > capacity) model.shift()
            cache.set(o.key, o.value)
          }
          if (cache.size !== model.length) return false
        }
        return true
      })
    )
  })

  it("refuses a capacity below 1", () => {
    assert.throws(() => new LruCache(0))
  })
})
