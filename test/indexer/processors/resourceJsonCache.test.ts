/**
 * The indexer input's cache of resource values' JSON (resourceJsonCache.ts), against a model (a
 * map by layout and bytes): whatever is kept and asked, in any order, it never answers with the
 * JSON of other bytes or of another layout, a value it answers with is the one last kept for those
 * bytes and that layout, and it holds no more than its slots and nothing over `MAX_BYTES`. The
 * input serving cached values to real transactions is checked against the REST API in
 * input.test.ts.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Layouts, type MoveTypeLayout } from "../../../src/move/layout/MoveTypeLayout.js"
import {
  MAX_BYTES,
  makeResourceJsonCache,
  PROBE,
  REST
} from "../../../src/indexer/processors/input/resourceJsonCache.js"

const layouts: ReadonlyArray<MoveTypeLayout> = [Layouts.u8, Layouts.u64, Layouts.address]
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex")

// Few distinct byte strings, so that the same ones come back (hits) and, with few slots, collide.
const value = fc.oneof(
  fc.constantFrom(new Uint8Array(0), Uint8Array.of(1), Uint8Array.of(1, 2), Uint8Array.of(2, 1)),
  fc.uint8Array({ maxLength: 8 }),
  fc.uint8Array({ minLength: MAX_BYTES - 1, maxLength: MAX_BYTES + 2 })
)
const op = fc.record({ keep: fc.boolean(), layout: fc.nat({ max: 2 }), bytes: value, json: fc.integer() })

describe("resourceJsonCache", () => {
  it("answers only with the JSON last kept for the same layout and bytes", () => {
    fc.assert(
      fc.property(fc.constantFrom(1, 2, 8, 64), fc.array(op, { maxLength: 200 }), (slots, ops) => {
        const cache = makeResourceJsonCache(slots)
        const model = new Map<string, number>()
        for (const o of ops) {
          const layout = layouts[o.layout]!
          const key = `${o.layout}:${hex(o.bytes)}`
          // The caller's bytes may be a view (here of a larger buffer), and may change afterwards.
          const view = new Uint8Array([9, ...o.bytes, 9]).subarray(1, 1 + o.bytes.length)
          if (o.keep) {
            cache.set(layout, view, o.json)
            if (o.bytes.length <= MAX_BYTES) model.set(key, o.json)
            view.fill(0xee)
          } else {
            const got = cache.get(layout, view)
            if (got !== undefined) expect(got).toBe(model.get(key))
            if (o.bytes.length > MAX_BYTES) expect(got).toBeUndefined()
          }
          expect(cache.size()).toBeLessThanOrEqual(slots)
        }
      }),
      { numRuns: 500 }
    )
  })

  it("keeps what it is given while its slot is not taken", () => {
    const cache = makeResourceJsonCache()
    const core = Uint8Array.from({ length: 105 }, (_, i) => i)
    cache.set(Layouts.u64, core, "kept")
    expect(cache.get(Layouts.u64, Uint8Array.from(core))).toBe("kept")
    // Another layout, or the same bytes but one, is not served.
    expect(cache.get(Layouts.u8, core)).toBeUndefined()
    const changed = Uint8Array.from(core)
    changed[104] = 0
    expect(cache.get(Layouts.u64, changed)).toBeUndefined()
    expect(cache.get(Layouts.u64, core.subarray(0, 104))).toBeUndefined()
  })

  it("passes over a layout whose values did not repeat, then probes it again", () => {
    const cache = makeResourceJsonCache()
    const repeated = Uint8Array.of(7, 7, 7)
    cache.set(Layouts.u64, repeated, "kept")
    // A round of lookups that find nothing (new values every time, as balances are)...
    for (let i = 0; i < PROBE; i++)
      expect(cache.get(Layouts.u64, new Uint8Array(Uint32Array.of(i + 1000).buffer))).toBeUndefined()
    // ...and the layout rests: not even the kept value is served, and nothing new is kept.
    expect(cache.get(Layouts.u64, repeated)).toBeUndefined()
    cache.set(Layouts.u64, Uint8Array.of(8), "not kept")
    for (let i = 1; i < REST; i++) expect(cache.get(Layouts.u64, repeated)).toBeUndefined()
    // Probed again: served (its slot still holds it), and the value set while resting was not kept.
    expect(cache.get(Layouts.u64, repeated)).toBe("kept")
    expect(cache.get(Layouts.u64, Uint8Array.of(8))).toBeUndefined()
    // Another layout was never affected.
    cache.set(Layouts.u8, repeated, "u8")
    expect(cache.get(Layouts.u8, repeated)).toBe("u8")
  })

  it("refuses a number of slots that is not a power of two", () => {
    expect(() => makeResourceJsonCache(3)).toThrow(RangeError)
    expect(() => makeResourceJsonCache(0)).toThrow(RangeError)
  })
})
