/**
 * The indexer input's cache of resource values' JSON (resourceJsonCache.ts): one key per type and
 * bytes (never two values under one key, whatever the bytes), none for a value too long, and a
 * kept value served only for the layout it was decoded with. The input serving cached values to
 * real transactions is checked against the REST API in input.test.ts.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Layouts, type MoveTypeLayout } from "../../../src/move/layout/MoveTypeLayout.js"
import { MAX_BYTES, makeResourceJsonCache } from "../../../src/indexer/processors/input/resourceJsonCache.js"

const typeKey = fc.oneof(
  fc.constantFrom("0x1::object::ObjectCore", "0x1::fungible_asset::Metadata", "0x1::coin::PairedCoinType"),
  fc.string({ maxLength: 80 }).filter((s) => !s.includes("\u0000"))
)
const bytes = fc.uint8Array({ maxLength: MAX_BYTES })

describe("resourceJsonCache", () => {
  it("keys two values alike exactly when their types and bytes are alike", () => {
    const cache = makeResourceJsonCache()
    fc.assert(
      fc.property(typeKey, bytes, typeKey, bytes, (t1, b1, t2, b2) => {
        const same = t1 === t2 && Buffer.from(b1).equals(Buffer.from(b2))
        expect(cache.keyOf(t1, b1) === cache.keyOf(t2, b2)).toBe(same)
      }),
      { numRuns: 2000 }
    )
    // Bytes that differ in one place only, and a type that ends where the other's bytes begin.
    expect(cache.keyOf("a", Uint8Array.of(0, 1))).not.toBe(cache.keyOf("a", Uint8Array.of(0, 2)))
    expect(cache.keyOf("a", Uint8Array.of(0x62))).not.toBe(cache.keyOf("ab", new Uint8Array(0)))
  })

  it("keeps no value longer than MAX_BYTES", () => {
    const cache = makeResourceJsonCache()
    fc.assert(
      fc.property(typeKey, fc.uint8Array({ minLength: MAX_BYTES + 1, maxLength: MAX_BYTES + 64 }), (t, b) => {
        expect(cache.keyOf(t, b)).toBeUndefined()
      })
    )
    expect(cache.keyOf("t", new Uint8Array(MAX_BYTES))).toBeDefined()
  })

  it("serves a kept value for the layout it was decoded with only", () => {
    const cache = makeResourceJsonCache()
    const key = cache.keyOf("0x1::m::S", Uint8Array.of(1, 0, 0, 0, 0, 0, 0, 0))!
    const decodedWith: MoveTypeLayout = Layouts.u64
    const other: MoveTypeLayout = Layouts.u8
    expect(cache.get(key, decodedWith)).toBeUndefined()
    cache.set(key, decodedWith, "1")
    expect(cache.get(key, decodedWith)).toBe("1")
    expect(cache.get(key, other)).toBeUndefined()
    // A value decoded again with the new layout replaces the old one.
    cache.set(key, other, "x")
    expect(cache.get(key, other)).toBe("x")
    expect(cache.get(key, decodedWith)).toBeUndefined()
  })

  it("stays within its capacity", () => {
    const cache = makeResourceJsonCache(16)
    for (let i = 0; i < 100; i++) cache.set(cache.keyOf("t", Uint8Array.of(i))!, Layouts.u8, i)
    expect(cache.size()).toBe(16)
    // The newest are kept.
    expect(cache.get(cache.keyOf("t", Uint8Array.of(99))!, Layouts.u8)).toBe(99)
    expect(cache.get(cache.keyOf("t", Uint8Array.of(0))!, Layouts.u8)).toBeUndefined()
  })
})
