/**
 * Secp256k1 and P-256 verification with OpenSSL's equation (`domain/ecdsaNative.ts`) answer as the
 * pure-JS definitions (@noble/curves with the reference's rules) on every kind of input: valid
 * signatures, every one-byte change of signature, key or message, high S (n − s, the same
 * signature's malleated twin), r or s zero or ≥ n, keys off the curve, random bytes; and the native
 * path is the one that answers for keys on the curve.
 */
import { p256 } from "@noble/curves/nist.js"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { sha256 } from "@noble/hashes/sha2.js"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ecdsaVerifyNative } from "../../../src/domain/ecdsaNative.js"
import { sha3 } from "../../../src/domain/hash.js"
import { verifySecp256k1, verifySecp256k1Digest } from "../../../src/execution/signatures/secp256k1Ecdsa.js"
import { verifySecp256r1, verifySecp256r1Js } from "../../../src/execution/signatures/secp256r1Ecdsa.js"

const be32 = (n: bigint): Uint8Array => Uint8Array.from(Buffer.from(n.toString(16).padStart(64, "0"), "hex"))
const beOf = (b: Uint8Array): bigint => BigInt(`0x${Buffer.from(b).toString("hex") || "0"}`)

const curves = [
  {
    name: "secp256k1",
    curve: secp256k1,
    digest: (m: Uint8Array) => sha3(m),
    fast: verifySecp256k1,
    js: (pk: Uint8Array, sig: Uint8Array, m: Uint8Array) => verifySecp256k1Digest(pk, sig, sha3(m)),
    native: (pk: Uint8Array, sig: Uint8Array, m: Uint8Array) => ecdsaVerifyNative("secp256k1", "sha3-256", pk, sig, m)
  },
  {
    name: "P-256",
    curve: p256,
    digest: (m: Uint8Array) => sha256(m),
    fast: verifySecp256r1,
    js: verifySecp256r1Js,
    native: (pk: Uint8Array, sig: Uint8Array, m: Uint8Array) => ecdsaVerifyNative("p256", "sha256", pk, sig, m)
  }
] as const

describe.each(curves)(
  "$name: OpenSSL's equation answers as the pure-JS check",
  ({ curve, digest, fast, js, native }) => {
    const N = curve.Point.Fn.ORDER
    const same = (pk: Uint8Array, sig: Uint8Array, m: Uint8Array): boolean => {
      const expected = js(pk, sig, m)
      expect(fast(pk, sig, m)).toBe(expected)
      return expected
    }
    const signed = fc
      .record({ secret: fc.bigInt({ min: 1n, max: N - 1n }), msg: fc.uint8Array({ maxLength: 300 }) })
      .map(({ secret, msg }) => {
        const sk = be32(secret)
        const pk = curve.getPublicKey(sk, false)
        const sig = curve.sign(digest(msg), sk, { prehash: false, lowS: true }) as Uint8Array
        return { pk, sig, msg }
      })

    it("valid signatures verify by the native path; every one-byte change answers the same", () => {
      fc.assert(
        fc.property(signed, fc.nat(), fc.integer({ min: 1, max: 255 }), ({ pk, sig, msg }, at, flip) => {
          // P-256's rule refuses s = (n − 1) / 2 exactly, which noble's lowS signing may produce: rare, and
          // the two paths still agree on it.
          const valid = same(pk, sig, msg)
          if (valid) expect(native(pk, sig, msg)).toBe(true)
          const badSig = sig.slice()
          badSig[at % 64] = (badSig[at % 64] as number) ^ flip
          same(pk, badSig, msg)
          const badPk = pk.slice()
          badPk[1 + (at % 64)] = (badPk[1 + (at % 64)] as number) ^ flip
          same(badPk, sig, msg)
          expect(same(pk, sig, Uint8Array.from([...msg, flip]))).toBe(false)
        }),
        { numRuns: 60 }
      )
    })

    it("high S (the malleated twin n − s), and r or s zero or ≥ n, are refused by both", () => {
      fc.assert(
        fc.property(signed, ({ pk, sig, msg }) => {
          const r = sig.subarray(0, 32)
          const s = beOf(sig.subarray(32))
          const high = Uint8Array.from([...r, ...be32(N - s)])
          // OpenSSL alone accepts it: the low-S rule is ours.
          expect(native(pk, high, msg)).toBe(true)
          expect(same(pk, high, msg)).toBe(false)
          // r or s zero, and r + n or s + n (out of range) where that still fits in 32 bytes.
          const fits = (x: bigint) => x < 2n ** 256n
          const outOfRange = [
            Uint8Array.from([...be32(0n), ...sig.subarray(32)]),
            Uint8Array.from([...r, ...be32(0n)]),
            ...(fits(beOf(r) + N) ? [Uint8Array.from([...be32(beOf(r) + N), ...sig.subarray(32)])] : []),
            ...(fits(s + N) ? [Uint8Array.from([...r, ...be32(s + N)])] : [])
          ]
          for (const bad of outOfRange) expect(same(pk, bad, msg)).toBe(false)
        }),
        { numRuns: 25 }
      )
    })

    it("keys off the curve, wrong forms and random bytes", () => {
      fc.assert(
        fc.property(
          fc.uint8Array({ minLength: 65, maxLength: 65 }),
          fc.uint8Array({ minLength: 64, maxLength: 64 }),
          fc.uint8Array({ maxLength: 64 }),
          (pk, sig, m) => {
            same(pk, sig, m)
            const uncompressed = Uint8Array.from([4, ...pk.subarray(1)])
            // Almost surely not on the curve: OpenSSL refuses the key and the pure-JS path answers.
            same(uncompressed, sig, m)
          }
        ),
        { numRuns: 150 }
      )
      const secret = be32(7n)
      const pk = curve.getPublicKey(secret, false)
      const msg = new Uint8Array([1, 2, 3])
      const sig = curve.sign(digest(msg), secret, { prehash: false, lowS: true }) as Uint8Array
      expect(same(pk.subarray(0, 64), sig, msg)).toBe(false)
      expect(same(curve.getPublicKey(secret, true), sig, msg)).toBe(false)
      expect(same(pk, sig.subarray(0, 63), msg)).toBe(false)
      const offCurve = pk.slice()
      offCurve[64] = (offCurve[64] as number) ^ 1
      expect(native(offCurve, sig, msg)).toBeUndefined()
      expect(same(offCurve, sig, msg)).toBe(false)
    })
  }
)
