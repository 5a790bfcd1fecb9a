/**
 * Strict Ed25519 (the reference's ed25519-dalek `verify_strict` + `check_s_malleability`):
 * canonical S only, small-order keys and R refused, and the cofactorless equation, so that a key
 * with a torsion component does not verify where @noble/curves' cofactored `verify` would.
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { sha512 } from "@noble/hashes/sha2.js"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { validPublicKey, verifyStrict } from "../../../src/domain/ed25519Strict.js"

const Point = ed25519.Point
const L = Point.Fn.ORDER
const le = (n: bigint, len = 32) => {
  const out = new Uint8Array(len)
  for (let i = 0; i < len; i++) out[i] = Number((n >> BigInt(8 * i)) & 0xffn)
  return out
}
const leNum = (b: Uint8Array) => b.reduceRight((acc, x) => (acc << 8n) | BigInt(x), 0n)
const concat = (...xs: Uint8Array[]) => {
  const out = new Uint8Array(xs.reduce((n, x) => n + x.length, 0))
  let o = 0
  for (const x of xs) out.set(x, (o += x.length) - x.length)
  return out
}

const sk = new Uint8Array(32).fill(9)
const pk = ed25519.getPublicKey(sk)
const msg = new TextEncoder().encode("movenode strict ed25519")
const sig = ed25519.sign(msg, sk)

describe("verifyStrict", () => {
  it("accepts a @noble/curves signature and refuses other messages, keys and flipped bits", () => {
    expect(verifyStrict(sig, pk, msg)).toBe(true)
    expect(verifyStrict(sig, pk, new Uint8Array([1]))).toBe(false)
    expect(verifyStrict(sig, ed25519.getPublicKey(new Uint8Array(32).fill(8)), msg)).toBe(false)
    for (let i = 0; i < 64; i += 7) {
      const bad = sig.slice()
      bad[i]! ^= 0x10
      expect(verifyStrict(bad, pk, msg)).toBe(false)
    }
  })

  it("refuses the non-canonical S + L form of a valid signature", () => {
    const s = leNum(sig.subarray(32))
    const malleated = concat(sig.subarray(0, 32), le(s + L))
    expect(verifyStrict(malleated, pk, msg)).toBe(false)
  })

  it("refuses small-order public keys and small-order R, and validPublicKey agrees", () => {
    // The identity: small order, a trivial signature (R = identity, S = 0) satisfies the equation.
    const identity = Point.ZERO.toBytes()
    expect(validPublicKey(identity)).toBe(false)
    expect(verifyStrict(concat(identity, new Uint8Array(32)), identity, msg)).toBe(false)
    const torsion = Point.fromHex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")
    expect(validPublicKey(torsion.toBytes())).toBe(false)
    expect(validPublicKey(pk)).toBe(true)
    expect(validPublicKey(pk.subarray(1))).toBe(false)
  })

  it("uses the cofactorless equation: a key with a torsion component fails where noble's cofactored verify passes", () => {
    const T = Point.fromHex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05") // order 8
    const a = 123456789n
    const A = Point.BASE.multiply(a).add(T)
    const aBytes = A.toBytes()
    expect(validPublicKey(aBytes)).toBe(true) // not of small order, only mixed
    let found = false
    for (let i = 0; i < 16 && !found; i++) {
      const m = new Uint8Array([i])
      const r = 1000n + BigInt(i)
      const R = Point.BASE.multiply(r).toBytes()
      const k = leNum(sha512(concat(R, aBytes, m))) % L
      if (k % 8n === 0n) continue
      const s = (r + k * a) % L
      const signature = concat(R, le(s))
      expect(ed25519.verify(signature, m, aBytes, { zip215: false })).toBe(true)
      expect(verifyStrict(signature, aBytes, m)).toBe(false)
      found = true
    }
    expect(found).toBe(true)
  })

  it("never throws on arbitrary bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70 }), fc.uint8Array({ maxLength: 40 }), (s, k) => {
        expect(typeof verifyStrict(s, k, msg)).toBe("boolean")
        expect(typeof validPublicKey(k)).toBe("boolean")
      }),
      { numRuns: 200 }
    )
  })
})
