import { ed25519 } from "@noble/curves/ed25519.js"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ed25519PublicKey, ed25519Signer } from "../../src/chain/ed25519Signer.js"

describe("ed25519Signer (node:crypto)", () => {
  it("gives the public keys and signatures @noble/curves gives (RFC 8032 is deterministic)", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ maxLength: 300 }),
        (seed, message) => {
          const signer = ed25519Signer(seed)
          expect(signer.publicKey).toEqual(ed25519.getPublicKey(seed))
          expect(ed25519PublicKey(seed)).toEqual(signer.publicKey)
          const signature = signer.sign(message)
          expect(signature).toEqual(ed25519.sign(message, seed))
          expect(ed25519.verify(signature, message, signer.publicKey)).toBe(true)
        }
      ),
      { numRuns: 200 }
    )
  })

  it("refuses a key that is not 32 bytes", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 64 }).filter((k) => k.length !== 32),
        (key) => {
          expect(() => ed25519Signer(key)).toThrow(/32 bytes/)
        }
      )
    )
  })
})
