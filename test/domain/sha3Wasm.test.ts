/**
 * `sha3Wasm` (the WebAssembly Keccak `hash.ts` uses up to 1 KB) against node:crypto and
 * @noble/hashes: any split of any bytes up to its limit, every block boundary, views into larger
 * buffers, a fresh plain array per digest, and a clear refusal past its limit.
 */
import { createHash } from "node:crypto"
import { sha3_256 } from "@noble/hashes/sha3.js"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { nodeHashing, sha3Wasm, WASM_MAX_INPUT } from "../../src/domain/sha3Wasm.js"

const wasm = sha3Wasm!
const native = (parts: ReadonlyArray<Uint8Array>): number[] => {
  const h = createHash("sha3-256")
  for (const p of parts) h.update(p)
  return [...h.digest()]
}
const total = (parts: ReadonlyArray<Uint8Array>): number => parts.reduce((n, p) => n + p.length, 0)

describe("sha3Wasm", () => {
  it("is available on this host (Node has WebAssembly)", () => {
    expect(sha3Wasm).toBeDefined()
  })

  it("equals node:crypto's SHA3-256 for any parts up to its limit", () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 400 }), { maxLength: 6 }), (parts) => {
        fc.pre(total(parts) <= WASM_MAX_INPUT)
        expect([...wasm(parts, total(parts))]).toEqual(native(parts))
      }),
      { numRuns: 500 }
    )
  })

  it("agrees at every block boundary up to the limit, with @noble/hashes too", () => {
    for (let n = 0; n <= WASM_MAX_INPUT; n++) {
      if (n > 10 && n % 136 > 2 && n % 136 < 134 && n < WASM_MAX_INPUT - 2) continue
      const b = Uint8Array.from({ length: n }, (_, i) => (i * 131 + n) & 0xff)
      expect([...wasm([b], n)], `length ${n}`).toEqual([...sha3_256(b)])
    }
  })

  it("reads views at any offset of a larger buffer, and leaves no state behind", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 600 }), fc.nat(), fc.nat(), (b, x, y) => {
        const start = x % b.length
        const end = start + (y % (b.length - start + 1))
        const view = b.subarray(start, end)
        // A long input first: its blocks must not leak into the next digest.
        wasm([new Uint8Array(WASM_MAX_INPUT).fill(0xff)], WASM_MAX_INPUT)
        expect([...wasm([view], view.length)]).toEqual(native([view]))
      }),
      { numRuns: 200 }
    )
  })

  it("hands back a fresh plain Uint8Array each call", () => {
    const a = wasm([new Uint8Array([1])], 1)
    const copy = [...a]
    wasm([new Uint8Array([2])], 1)
    expect(a.constructor).toBe(Uint8Array)
    expect(a.length).toBe(32)
    expect([...a]).toEqual(copy)
  })

  it("refuses more than its limit with a RangeError (hash.ts sends those to node:crypto)", () => {
    const b = new Uint8Array(WASM_MAX_INPUT + 1)
    expect(() => wasm([b], b.length)).toThrow(RangeError)
  })

  it("nodeHashing: a path of 96-byte nodes, each digest a child of the next, equals node:crypto's hashes", () => {
    const nodes = nodeHashing!
    const hash32 = fc.uint8Array({ minLength: 32, maxLength: 32 })
    fc.assert(
      fc.property(
        hash32,
        hash32,
        hash32,
        fc.array(fc.tuple(fc.boolean(), hash32), { maxLength: 20 }),
        fc.uint8Array({ maxLength: 300 }),
        (prefix, left, right, steps, between) => {
          nodes.prefix(prefix)
          nodes.node(left, right)
          let expected = native([prefix, left, right])
          for (const [digestOnRight, sibling] of steps) {
            if (digestOnRight) {
              nodes.nodeLeftOfDigest(sibling)
              expected = native([prefix, sibling, Uint8Array.from(expected)])
            } else {
              nodes.nodeRightOfDigest(sibling)
              expected = native([prefix, Uint8Array.from(expected), sibling])
            }
          }
          const digest = nodes.digest()
          expect([...digest]).toEqual(expected)
          expect(digest.constructor).toBe(Uint8Array)
          // A general hash in between (its own input, its own padding) leaves the node block intact.
          expect([...wasm([between], between.length)]).toEqual(native([between]))
          nodes.node(right, left)
          expect([...nodes.digest()]).toEqual(native([prefix, right, left]))
        }
      ),
      { numRuns: 200 }
    )
  })
})
