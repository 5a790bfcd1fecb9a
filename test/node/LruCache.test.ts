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

  it("matches a list model of recency under any sequence of operations, evicting by count and, with a weight budget, by summed weight, and keeping no value heavier than the budget", () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant("get" as const), key: fc.integer({ min: 0, max: 9 }) }),
      fc.record({ kind: fc.constant("delete" as const), key: fc.integer({ min: 0, max: 9 }) }),
      fc.record({
        kind: fc.constant("set" as const),
        key: fc.integer({ min: 0, max: 9 }),
        value: fc.integer({ min: 0, max: 120 })
      })
    )
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        // No budget (the count alone), or one the values weigh against.
        fc.option(fc.integer({ min: 1, max: 150 }), { nil: undefined }),
        fc.array(op, { maxLength: 80 }),
        (capacity, max, ops) => {
          // A value weighs itself.
          const cache =
            max === undefined
              ? new LruCache<number, number>(capacity)
              : new LruCache<number, number>(capacity, { max, of: (v) => v })
          const budget = max ?? Number.POSITIVE_INFINITY
          let model: Array<[number, number]> = [] // most recent last
          const sum = () => model.reduce((a, [, v]) => a + v, 0)
          for (const o of ops) {
            const i = model.findIndex(([k]) => k === o.key)
            if (o.kind === "get") {
              const expected = i >= 0 ? model[i]![1] : undefined
              if (i >= 0) model = [...model.slice(0, i), ...model.slice(i + 1), model[i]!]
              if (cache.get(o.key) !== expected) return false
            } else if (o.kind === "delete") {
              if (i >= 0) model.splice(i, 1)
              cache.delete(o.key)
            } else {
              if (i >= 0) model.splice(i, 1)
              if (o.value <= budget) {
                model.push([o.key, o.value])
                while (model.length > capacity || sum() > budget) model.shift()
              }
              cache.set(o.key, o.value)
            }
            if (cache.size !== model.length) return false
            if (cache.totalWeight !== (max === undefined ? 0 : sum()) || cache.totalWeight > budget) return false
            for (const [k, v] of model) if (!cache.has(k) || cache.get(k) !== v) return false
            // The reads above moved each key to the end in model order: recency unchanged.
          }
          return true
        }
      )
    )
  })

  it("weighs a value again when its key is set again (a mutable entry that grew)", () => {
    const entry = { bytes: 10 }
    const cache = new LruCache<string, { bytes: number }>(10, { max: 100, of: (e) => e.bytes })
    cache.set("a", entry)
    cache.set("b", { bytes: 50 })
    assert.strictEqual(cache.totalWeight, 60)
    entry.bytes = 60
    cache.set("a", entry) // 60 + 50 > 100: "b", now the least recently used, goes
    assert.isFalse(cache.has("b"))
    assert.strictEqual(cache.totalWeight, 60)
    entry.bytes = 101
    cache.set("a", entry) // heavier than the whole budget: not kept
    assert.strictEqual(cache.size, 0)
    assert.strictEqual(cache.totalWeight, 0)
    assert.strictEqual(cache.get("a"), undefined)
  })

  it("refuses a capacity below 1 and a weight budget that is not positive", () => {
    assert.throws(() => new LruCache(0))
    assert.throws(() => new LruCache(1, { max: 0, of: () => 1 }))
  })
})
