/** MultiEd25519 layout and bitmap rules (`MultiEd25519PublicKey` / `MultiEd25519Signature`). */
import { Ed25519Account, Ed25519PrivateKey } from "@aptos-labs/ts-sdk"
import { ed25519 } from "@noble/curves/ed25519.js"
import { describe, expect, it } from "vitest"
import { signingMessage } from "../../../src/domain/signingMessage.js"
import { verifyMultiEd25519Authenticator } from "../../../src/execution/signatures/multiEd25519.js"
import { rawTransactionSubject } from "../../../src/execution/signatures/SigningSubject.js"
import { decodeSigned, signedSimple } from "../sdkSigned.js"

const raw = decodeSigned(
  signedSimple(new Ed25519Account({ privateKey: new Ed25519PrivateKey(new Uint8Array(32).fill(1)) }))
).rawTransaction
const subject = rawTransactionSubject(raw)
const sks = [1, 2, 3].map((n) => new Uint8Array(32).fill(n + 60))
const pks = sks.map((sk) => ed25519.getPublicKey(sk))
const packKey = (threshold: number, keys = pks) => new Uint8Array([...keys.flatMap((k) => [...k]), threshold])
const sigOf = (i: number) => ed25519.sign(signingMessage(raw), sks[i]!)
const packSig = (signers: number[], bitmap: number[]) =>
  new Uint8Array([...signers.flatMap((i) => [...sigOf(i)]), ...bitmap])

describe("verifyMultiEd25519Authenticator", () => {
  it("2 of 3 with keys 0 and 2: valid", () => {
    expect(
      verifyMultiEd25519Authenticator(packKey(2), packSig([0, 2], [0b1010_0000, 0, 0, 0]), subject)
    ).toBeUndefined()
  })

  it("refuses: threshold 0 or above n, bad key length, more signatures than bits, below threshold, bit past n", () => {
    const good = packSig([0, 2], [0b1010_0000, 0, 0, 0])
    expect(verifyMultiEd25519Authenticator(packKey(0), good, subject)).toMatch(/threshold/)
    expect(verifyMultiEd25519Authenticator(packKey(4), good, subject)).toMatch(/threshold/)
    expect(verifyMultiEd25519Authenticator(packKey(2).subarray(1), good, subject)).toMatch(/public key/)
    expect(verifyMultiEd25519Authenticator(packKey(2), packSig([0, 2], [0b1000_0000, 0, 0, 0]), subject)).toBeDefined()
    expect(verifyMultiEd25519Authenticator(packKey(3), good, subject)).toBeDefined()
    expect(verifyMultiEd25519Authenticator(packKey(1), packSig([0], [0, 0, 0, 1]), subject)).toBeDefined()
    expect(verifyMultiEd25519Authenticator(packKey(2), good.subarray(0, good.length - 1), subject)).toMatch(/bitmap/)
  })

  it("refuses a non-canonical S in one of the signatures", () => {
    const L = ed25519.Point.Fn.ORDER
    const sig = packSig([0, 2], [0b1010_0000, 0, 0, 0])
    const s = sig.subarray(96, 128).reduceRight((a, x) => (a << 8n) | BigInt(x), 0n) + L
    for (let i = 0; i < 32; i++) sig[96 + i] = Number((s >> BigInt(8 * i)) & 0xffn)
    expect(verifyMultiEd25519Authenticator(packKey(2), sig, subject)).toBeDefined()
  })
})
