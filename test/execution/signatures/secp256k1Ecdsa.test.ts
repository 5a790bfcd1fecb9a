/** Secp256k1 ECDSA over sha3-256 of the signing message, low S only, 65-byte uncompressed keys. */
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { sha3_256 } from "@noble/hashes/sha3.js"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { verifySecp256k1Ecdsa } from "../../../src/execution/signatures/secp256k1Ecdsa.js"
import type { SigningSubject } from "../../../src/execution/signatures/SigningSubject.js"

const subject: SigningSubject = { typeName: "RawTransaction", message: new TextEncoder().encode("any signing message") }
const sk = new Uint8Array(32).fill(5)
const pk = secp256k1.getPublicKey(sk, false)
const sig = secp256k1.sign(sha3_256(subject.message), sk, { prehash: false, lowS: true })
const N = secp256k1.Point.Fn.ORDER

describe("verifySecp256k1Ecdsa", () => {
  it("accepts a low-S signature over sha3-256 of the message", () => {
    expect(verifySecp256k1Ecdsa(pk, sig, subject)).toBeUndefined()
  })

  it("refuses the high-S twin, a SHA-256-hashed signature, a compressed key, other bytes", () => {
    const s = BigInt("0x" + Buffer.from(sig.subarray(32)).toString("hex"))
    const high = new Uint8Array([...sig.subarray(0, 32), ...Buffer.from((N - s).toString(16).padStart(64, "0"), "hex")])
    expect(verifySecp256k1Ecdsa(pk, high, subject)).toBeDefined()
    const sha2 = secp256k1.sign(subject.message, sk, { lowS: true })
    expect(verifySecp256k1Ecdsa(pk, sha2, subject)).toBeDefined()
    expect(verifySecp256k1Ecdsa(secp256k1.getPublicKey(sk, true), sig, subject)).toMatch(/65 bytes/)
    expect(verifySecp256k1Ecdsa(pk, sig.subarray(1), subject)).toMatch(/64 bytes/)
    expect(verifySecp256k1Ecdsa(pk, new Uint8Array(64), subject)).toBeDefined()
  })

  it("never throws on arbitrary keys and signatures", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 64, maxLength: 64 }),
        fc.uint8Array({ minLength: 64, maxLength: 64 }),
        (s, k) => {
          expect(typeof verifySecp256k1Ecdsa(new Uint8Array([4, ...k]), s, subject)).toBe("string")
        }
      ),
      { numRuns: 100 }
    )
  })
})
