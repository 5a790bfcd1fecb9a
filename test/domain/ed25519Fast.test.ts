/**
 * `verifyStrictFast` (libsodium or node:crypto for the curve equation, a memo of verified
 * signatures), and `verifyStrictFastUnremembered` (the same without the memo), answer as
 * `verifyStrict` (the reference's dalek `verify_strict` on noble's points) on every kind of input:
 * valid signatures, tampered ones, non-canonical S, small-order keys and R, non-canonical point
 * encodings, keys with a torsion component, random bytes; and the memo never answers for another
 * key or message. Every test runs with each backend: libsodium (the optional `sodium-native`,
 * which must load wherever it is installed) and OpenSSL (`MOVENODE_ED25519=openssl`).
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import fc from "fast-check"
import { createRequire } from "node:module"
import { beforeAll, describe, expect, it, vi } from "vitest"
import type * as Fast from "../../src/domain/ed25519Fast.js"
import { verifyStrict } from "../../src/domain/ed25519Strict.js"

const Point = ed25519.Point
const L = Point.Fn.ORDER

const le = (n: bigint): Uint8Array => {
  const out = new Uint8Array(32)
  for (let i = 0; i < 32; i++) {
    out[i] = Number(n & 0xffn)
    n >>= 8n
  }
  return out
}
const fromLe = (b: Uint8Array): bigint => b.reduceRight((acc, x) => (acc << 8n) | BigInt(x), 0n)

/** Every small-order point's encodings: y of the 8-torsion with both sign bits. */
const SMALL_ORDER = [
  "0000000000000000000000000000000000000000000000000000000000000000",
  "0100000000000000000000000000000000000000000000000000000000000000",
  "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
  "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"
].flatMap((h) => {
  const a = Uint8Array.from(Buffer.from(h, "hex"))
  const b = a.slice()
  b[31] = (b[31] as number) | 0x80
  return [a, b]
})

/** A point of order 8 (to give keys and R a torsion component). */
const T8 = Point.fromBytes(SMALL_ORDER[6]!, true)

const sodiumInstalled = (() => {
  try {
    createRequire(import.meta.url).resolve("sodium-native")
    return true
  } catch {
    return false
  }
})()

describe.each(["libsodium", "openssl"] as const)("with %s for the curve equation", (backend) => {
  let verifyStrictFast: typeof Fast.verifyStrictFast
  let verifyStrictFastUnremembered: typeof Fast.verifyStrictFastUnremembered
  let preverifyStrictFast: typeof Fast.preverifyStrictFast
  beforeAll(async () => {
    vi.resetModules()
    if (backend === "openssl") vi.stubEnv("MOVENODE_ED25519", "openssl")
    else vi.stubEnv("MOVENODE_ED25519", "")
    const fast = await import("../../src/domain/ed25519Fast.js")
    // The backend is chosen on first use: ask now, while the variable says which.
    const chosen = fast.ed25519Backend()
    vi.unstubAllEnvs()
    verifyStrictFast = fast.verifyStrictFast
    verifyStrictFastUnremembered = fast.verifyStrictFastUnremembered
    preverifyStrictFast = fast.preverifyStrictFast
    if (backend === "libsodium" && !sodiumInstalled) return
    expect(chosen).toBe(backend)
    expect(fast.ed25519Backend()).toBe(backend)
  })

  const same = (sig: Uint8Array, pk: Uint8Array, msg: Uint8Array) => {
    const expected = verifyStrict(sig, pk, msg)
    expect(verifyStrictFast(sig, pk, msg)).toBe(expected)
    // Twice: a memo hit must give the same answer.
    expect(verifyStrictFast(sig, pk, msg)).toBe(expected)
    // And without the memo (the admission worker's).
    expect(verifyStrictFastUnremembered(sig, pk, msg)).toBe(expected)
    return expected
  }

  const keyAndMessage = fc.record({
    secret: fc.uint8Array({ minLength: 32, maxLength: 32 }),
    msg: fc.uint8Array({ maxLength: 300 })
  })

  describe("verifyStrictFast answers as verifyStrict", () => {
    it("valid signatures, and every one-byte change of signature, key or message", () => {
      fc.assert(
        fc.property(keyAndMessage, fc.nat(), fc.integer({ min: 1, max: 255 }), ({ secret, msg }, at, flip) => {
          const pk = ed25519.getPublicKey(secret)
          const sig = ed25519.sign(msg, secret)
          expect(same(sig, pk, msg)).toBe(true)
          const badSig = sig.slice()
          badSig[at % 64] = (badSig[at % 64] as number) ^ flip
          same(badSig, pk, msg)
          const badPk = pk.slice()
          badPk[at % 32] = (badPk[at % 32] as number) ^ flip
          same(sig, badPk, msg)
          const badMsg = Uint8Array.from([...msg, flip])
          expect(same(sig, pk, badMsg)).toBe(false)
        }),
        { numRuns: 150 }
      )
    })

    it("S ≥ L (S + L is the same scalar) is refused", () => {
      fc.assert(
        fc.property(keyAndMessage, ({ secret, msg }) => {
          const pk = ed25519.getPublicKey(secret)
          const sig = ed25519.sign(msg, secret)
          const s = fromLe(sig.subarray(32))
          const malleated = Uint8Array.from([...sig.subarray(0, 32), ...le(s + L)])
          expect(same(malleated, pk, msg)).toBe(false)
        }),
        { numRuns: 30 }
      )
    })

    it("small-order keys and small-order R are refused, whatever the rest", () => {
      const secret = new Uint8Array(32).fill(9)
      const msg = new TextEncoder().encode("small order")
      const sig = ed25519.sign(msg, secret)
      const pk = ed25519.getPublicKey(secret)
      for (const small of SMALL_ORDER) {
        expect(same(sig, small, msg)).toBe(false)
        expect(same(Uint8Array.from([...small, ...sig.subarray(32)]), pk, msg)).toBe(false)
        // The classic forgery under the identity key: R = identity... and S = 0.
        expect(same(Uint8Array.from([...small, ...new Uint8Array(32)]), small, msg)).toBe(false)
      }
    })

    it("keys and R with a torsion component (cofactorless: refused as dalek refuses them)", () => {
      fc.assert(
        fc.property(keyAndMessage, fc.integer({ min: 1, max: 7 }), ({ secret, msg }, k) => {
          const pk = ed25519.getPublicKey(secret)
          const sig = ed25519.sign(msg, secret)
          const torsion = T8.multiplyUnsafe(BigInt(k))
          const mixedPk = Point.fromBytes(pk).add(torsion).toBytes()
          same(sig, mixedPk, msg)
          const mixedR = Point.fromBytes(sig.subarray(0, 32)).add(torsion).toBytes()
          expect(same(Uint8Array.from([...mixedR, ...sig.subarray(32)]), pk, msg)).toBe(false)
        }),
        { numRuns: 40 }
      )
    })

    it("non-canonical y (≥ p) in the key or in R, and random bytes", () => {
      const secret = new Uint8Array(32).fill(3)
      const msg = new Uint8Array([1, 2, 3])
      const sig = ed25519.sign(msg, secret)
      const pk = ed25519.getPublicKey(secret)
      // y = p + d for small d: the non-canonical encodings of y = d.
      for (let d = 0; d < 19; d++) {
        const y = le((1n << 255n) - 19n + BigInt(d))
        for (const sign of [0, 0x80]) {
          const enc = y.slice()
          enc[31] = (enc[31] as number) | sign
          same(sig, enc, msg)
          same(Uint8Array.from([...enc, ...sig.subarray(32)]), pk, msg)
        }
      }
      fc.assert(
        fc.property(
          fc.uint8Array({ minLength: 64, maxLength: 64 }),
          fc.uint8Array({ minLength: 32, maxLength: 32 }),
          fc.uint8Array({ maxLength: 64 }),
          (s, k, m) => {
            same(s, k, m)
            same(Uint8Array.from([...s.subarray(0, 32), ...sig.subarray(32)]), pk, m)
          }
        ),
        { numRuns: 200 }
      )
    })

    it("the memo answers only for the exact signature, key and message", () => {
      const secret = new Uint8Array(32).fill(5)
      const pk = ed25519.getPublicKey(secret)
      const other = ed25519.getPublicKey(new Uint8Array(32).fill(6))
      const msg = new TextEncoder().encode("memo")
      const sig = ed25519.sign(msg, secret)
      expect(verifyStrictFast(sig, pk, msg)).toBe(true)
      expect(verifyStrictFast(sig, other, msg)).toBe(false)
      expect(verifyStrictFast(sig, pk, new TextEncoder().encode("memO"))).toBe(false)
      expect(verifyStrictFast(sig, pk, msg.subarray(0, 3))).toBe(false)
      // The message buffer changing after a verification does not make the memo lie.
      const buffer = msg.slice()
      expect(verifyStrictFast(sig, pk, buffer)).toBe(true)
      buffer[0] = 0
      expect(verifyStrictFast(sig, pk, buffer)).toBe(false)
      // Wrong lengths.
      expect(verifyStrictFast(sig.subarray(0, 63), pk, msg)).toBe(false)
      expect(verifyStrictFast(sig, pk.subarray(0, 31), msg)).toBe(false)
    })
  })

  describe("preverifyStrictFast (the thread pool's verification) never contradicts verifyStrict", () => {
    it("true only for what verifyStrict accepts; valid signatures verify; every one-byte change is refused", async () => {
      await fc.assert(
        fc.asyncProperty(
          keyAndMessage,
          fc.nat(),
          fc.integer({ min: 1, max: 255 }),
          async ({ secret, msg }, at, flip) => {
            const pk = ed25519.getPublicKey(secret)
            const sig = ed25519.sign(msg, secret)
            expect(await preverifyStrictFast(sig, pk, msg)).toBe(true)
            // Remembered: the synchronous check answers the same (a memo hit).
            expect(verifyStrictFast(sig, pk, msg)).toBe(true)
            const bad = sig.slice()
            bad[at % 64] = (bad[at % 64] as number) ^ flip
            const pre = await preverifyStrictFast(bad, pk, msg)
            const expected = verifyStrict(bad, pk, msg)
            if (pre) expect(expected).toBe(true)
            expect(verifyStrictFast(bad, pk, msg)).toBe(expected)
          }
        ),
        { numRuns: 100 }
      )
    })

    it("small-order keys and R, non-canonical S, wrong lengths: not verified here (false), as verifyStrict refuses", async () => {
      const msg = new TextEncoder().encode("small order")
      for (const so of SMALL_ORDER) {
        const sig = new Uint8Array(64)
        sig.set(so, 0)
        expect(await preverifyStrictFast(sig, so, msg)).toBe(false)
        expect(verifyStrict(sig, so, msg)).toBe(false)
      }
      const secret = new Uint8Array(32).fill(9)
      const pk = ed25519.getPublicKey(secret)
      const sig = ed25519.sign(msg, secret)
      const highS = sig.slice()
      highS.set(le(fromLe(sig.subarray(32)) + L), 32)
      expect(await preverifyStrictFast(highS, pk, msg)).toBe(false)
      expect(await preverifyStrictFast(sig.subarray(0, 63), pk, msg)).toBe(false)
      expect(await preverifyStrictFast(sig, pk.subarray(0, 31), msg)).toBe(false)
    })

    it("the buffers may change while the thread pool works: the answer is for the bytes given", async () => {
      const secret = new Uint8Array(32).fill(11)
      const pk = ed25519.getPublicKey(secret)
      const msg = new TextEncoder().encode("changed meanwhile")
      const sig = ed25519.sign(msg, secret)
      const buffer = msg.slice()
      const pending = preverifyStrictFast(sig, pk, buffer)
      buffer[0] = 0
      expect(await pending).toBe(true)
      expect(verifyStrictFast(sig, pk, msg)).toBe(true)
      expect(verifyStrictFast(sig, pk, buffer)).toBe(false)
    })
  })
})
