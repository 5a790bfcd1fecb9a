/** MultiKey bitmap rules (the reference's `MultiKeyAuthenticator::to_single_key_authenticators`). */
import { Ed25519Account, Ed25519PrivateKey } from "@aptos-labs/ts-sdk"
import { ed25519 } from "@noble/curves/ed25519.js"
import { describe, expect, it } from "vitest"
import { signingMessage } from "../../../src/domain/signingMessage.js"
import type { AnyPublicKey, AnySignature, RawTransaction } from "../../../src/domain/index.js"
import { bitmapOnes, verifyMultiKey } from "../../../src/execution/signatures/multiKey.js"
import { rawTransactionSubject } from "../../../src/execution/signatures/SigningSubject.js"
import { decodeSigned, signedSimple } from "../sdkSigned.js"

const raw: RawTransaction = decodeSigned(
  signedSimple(new Ed25519Account({ privateKey: new Ed25519PrivateKey(new Uint8Array(32).fill(1)) }))
).rawTransaction
const subject = rawTransactionSubject(raw)
const sks = [1, 2, 3, 4].map((n) => new Uint8Array(32).fill(n + 40))
const keys: AnyPublicKey[] = sks.map((sk) => ({ _tag: "Ed25519", publicKey: ed25519.getPublicKey(sk) }))
const sig = (i: number): AnySignature => ({ _tag: "Ed25519", signature: ed25519.sign(signingMessage(raw), sks[i]!) })

describe("verifyMultiKey", () => {
  it("keys 0 and 2 of 4 signing, 2 required: valid; the bitmap is read from the most significant bit", () => {
    expect(bitmapOnes(new Uint8Array([0b1010_0000]))).toEqual([0, 2])
    expect(verifyMultiKey(keys, 2, [sig(0), sig(2)], new Uint8Array([0b1010_0000]), subject)).toBeUndefined()
    // A longer bitmap with trailing zero bytes is the same set.
    expect(verifyMultiKey(keys, 2, [sig(0), sig(2)], new Uint8Array([0b1010_0000, 0, 0]), subject)).toBeUndefined()
  })

  it("refuses: empty bitmap, last bit past the keys, count mismatch, too few, swapped order, bitmap over 32 bytes", () => {
    expect(verifyMultiKey(keys, 1, [], new Uint8Array([0]), subject)).toMatch(/no signatures/)
    expect(verifyMultiKey(keys, 1, [sig(0)], new Uint8Array([0b0000_1000]), subject)).toMatch(/position of the last/)
    expect(verifyMultiKey(keys, 1, [sig(0)], new Uint8Array([0b1010_0000]), subject)).toMatch(/number of signatures/)
    expect(verifyMultiKey(keys, 3, [sig(0), sig(2)], new Uint8Array([0b1010_0000]), subject)).toMatch(/Not enough/)
    expect(verifyMultiKey(keys, 2, [sig(2), sig(0)], new Uint8Array([0b1010_0000]), subject)).toMatch(/signature 0/)
    const long = new Uint8Array(33)
    long[0] = 0x80
    expect(verifyMultiKey(keys, 1, [sig(0)], long, subject)).toMatch(/more than 32/)
  })

  it("a signature paired with a key of another scheme fails", () => {
    const secpKey: AnyPublicKey = { _tag: "Secp256k1Ecdsa", publicKey: new Uint8Array(65) }
    expect(verifyMultiKey([secpKey], 1, [sig(0)], new Uint8Array([0x80]), subject)).toMatch(/pairing/)
  })
})
