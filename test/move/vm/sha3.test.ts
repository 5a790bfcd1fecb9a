/**
 * The VM's natives hash through `domain/hash.ts`'s `sha3` (node:crypto when available): it must
 * agree with @noble/hashes on any input and hand back a plain `Uint8Array`.
 */
import { sha3_256 } from "@noble/hashes/sha3.js"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { hashWithPrefix, sha3, sha3Concat } from "../../../src/domain/hash.js"

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

  it("sha3Concat hashes the concatenation", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), fc.uint8Array({ maxLength: 100 }), (a, b) => {
        const joined = new Uint8Array([...a, ...b])
        expect([...sha3Concat(a, b)]).toEqual([...sha3_256(joined)])
      })
    )
  })

  it("hashWithPrefix is sha3(sha3('APTOS::T') ‖ bcs)", () => {
    const bcs = new Uint8Array([1, 2, 3])
    const prefix = sha3_256(new TextEncoder().encode("APTOS::Transaction"))
    expect([...hashWithPrefix("Transaction", bcs)]).toEqual([...sha3_256(new Uint8Array([...prefix, ...bcs]))])
  })
})
