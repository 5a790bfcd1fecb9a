/**
 * The VM's natives hash through `domain/hash.ts`'s `sha3` (WebAssembly for short inputs, node:crypto
 * for long ones): it must agree with @noble/hashes on any input and hand back a plain `Uint8Array`.
 */
import { sha3_256 } from "@noble/hashes/sha3.js"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { hashWithPrefix, sha3, sha3Concat } from "../../../src/domain/hash.js"
import { sha3Js } from "../../../src/domain/sha3Js.js"

describe("sha3", () => {
  it("equals @noble/hashes' sha3_256 on any bytes, as a plain Uint8Array", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        const h = sha3(b)
        expect(h.constructor).toBe(Uint8Array)
        expect([...h]).toEqual([...sha3_256(b)])
      })
    )
  })

  it("agrees at every block boundary and on both sides of the JS/native switch", () => {
    const lengths = [0, 1, 134, 135, 136, 137, 271, 272, 273, 1023, 1024, 1025, 2000]
    for (const n of lengths) {
      const b = Uint8Array.from({ length: n }, (_, i) => (i * 131 + n) & 0xff)
      expect([...sha3(b)], `length ${n}`).toEqual([...sha3_256(b)])
    }
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 900, maxLength: 1200 }), (b) => {
        expect([...sha3(b)]).toEqual([...sha3_256(b)])
      }),
      { numRuns: 30 }
    )
  })

  it("hands back a fresh array each call (the JS state is reused)", () => {
    const a = sha3(new Uint8Array([1]))
    const copy = [...a]
    sha3(new Uint8Array([2]))
    expect([...a]).toEqual(copy)
  })

  it("sha3Concat hashes the concatenation", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.uint8Array({ maxLength: 200 }), (a, b) => {
        const joined = new Uint8Array([...a, ...b])
        expect([...sha3Concat(a, b)]).toEqual([...sha3_256(joined)])
      })
    )
  })

  it("sha3Concat of parts longer than its join buffer (4 KB, grown) hashes the concatenation", () => {
    const a = Uint8Array.from({ length: 3000 }, (_, i) => i & 0xff)
    const b = Uint8Array.from({ length: 9000 }, (_, i) => (i * 7) & 0xff)
    expect([...sha3Concat(a, b)]).toEqual([...sha3_256(new Uint8Array([...a, ...b]))])
    expect([...sha3Concat(b.subarray(0, 10), a)]).toEqual([...sha3_256(new Uint8Array([...b.subarray(0, 10), ...a]))])
  })

  it("the JS Keccak (the fallback where node:crypto has no one-shot sha3) equals @noble/hashes", () => {
    for (const n of [0, 1, 135, 136, 137, 271, 272, 273, 700, 1024]) {
      const b = Uint8Array.from({ length: n }, (_, i) => (i * 131 + n) & 0xff)
      expect([...sha3Js([b])], `length ${n}`).toEqual([...sha3_256(b)])
      expect([...sha3Js([b.subarray(0, n >> 1), b.subarray(n >> 1)])], `length ${n} in two parts`).toEqual([
        ...sha3_256(b)
      ])
    }
  })

  it("hashWithPrefix is sha3(sha3('APTOS::T') ‖ bcs)", () => {
    const bcs = new Uint8Array([1, 2, 3])
    const prefix = sha3_256(new TextEncoder().encode("APTOS::Transaction"))
    expect([...hashWithPrefix("Transaction", bcs)]).toEqual([...sha3_256(new Uint8Array([...prefix, ...bcs]))])
  })
})
