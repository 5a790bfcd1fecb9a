/**
 * Keyless: a transaction signed by the SDK's KeylessAccount (ephemeral Ed25519 key, a stand-in ZK
 * proof) verifies its ephemeral signature over TransactionAndProof, is reported for the keyless
 * stage, and that stage answers the reference's statuses (FEATURE_UNDER_GATING when flags are off,
 * else INVALID_SIGNATURE: JWK/Groth16 validation is not implemented).
 */
import { Ed25519PrivateKey } from "@aptos-labs/ts-sdk"
import { EphemeralKeyPair, Groth16Zkp, KeylessAccount, ZeroKnowledgeSig, ZkProof } from "@aptos-labs/ts-sdk/keyless"
import { describe, expect, it } from "vitest"
import { toHex } from "../../../src/bcs/index.js"
import type { SignedTransaction } from "../../../src/domain/Transaction.js"
import { keylessValidationStatus, SignatureFeatureFlag } from "../../../src/execution/signatures/features.js"
import { verifySignature } from "../../../src/execution/verifySignature.js"
import { decodeSigned, signedSimple } from "../sdkSigned.js"

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url")

const keylessAccount = (proofA = 1) => {
  const ephemeralKeyPair = new EphemeralKeyPair({
    privateKey: new Ed25519PrivateKey(new Uint8Array(32).fill(3)),
    expiryDateSecs: 1_900_000_000,
    blinder: new Uint8Array(31).fill(1)
  })
  const jwt = `${b64({ alg: "RS256", kid: "k1", typ: "JWT" })}.${b64({
    iss: "https://accounts.google.com",
    aud: "app",
    sub: "user1",
    nonce: ephemeralKeyPair.nonce,
    exp: 1_900_000_000,
    iat: 1
  })}.sig`
  const proof = new ZeroKnowledgeSig({
    proof: new ZkProof(
      new Groth16Zkp({
        a: new Uint8Array(32).fill(proofA),
        b: new Uint8Array(64).fill(2),
        c: new Uint8Array(32).fill(3)
      }),
      0
    ),
    expHorizonSecs: 100
  })
  return KeylessAccount.create({ proof, jwt, ephemeralKeyPair, pepper: new Uint8Array(31).fill(5) })
}

describe("keyless", () => {
  const account = keylessAccount()
  const txn = decodeSigned(signedSimple(account))

  it("the SDK-signed ephemeral signature over TransactionAndProof verifies; the auth key is the SDK's", () => {
    const v = verifySignature(txn)
    if (v._tag === "Invalid") throw new Error(v.reason)
    expect(v.keyless).toHaveLength(1)
    expect(v.keyless[0]!.publicKey._tag).toBe("Keyless")
    expect("0x" + toHex(v.signers.sender.authKey!)).toBe(account.publicKey.authKey().toString())
  })

  it("swapping the proof (which the ephemeral key signed over) breaks the signature", () => {
    if (txn.authenticator._tag !== "SingleSender" || txn.authenticator.sender._tag !== "SingleKey")
      throw new Error("expected SingleKey")
    const sender = txn.authenticator.sender
    if (sender.signature._tag !== "Keyless") throw new Error("expected a keyless signature")
    const k = sender.signature.signature
    const swapped: SignedTransaction = {
      rawTransaction: txn.rawTransaction,
      authenticator: {
        _tag: "SingleSender",
        sender: {
          ...sender,
          signature: {
            _tag: "Keyless",
            signature: {
              ...k,
              certificate: { ...k.certificate, proof: { ...k.certificate.proof, a: new Uint8Array(32).fill(9) } }
            }
          }
        }
      }
    }
    expect(verifySignature(swapped)._tag).toBe("Invalid")
  })

  it("the keyless stage: FEATURE_UNDER_GATING without flag 46, else INVALID_SIGNATURE (not supported)", () => {
    const v = verifySignature(txn)
    if (v._tag === "Invalid") throw new Error(v.reason)
    const off = keylessValidationStatus(v.keyless, (f) => f !== SignatureFeatureFlag.KEYLESS_ACCOUNTS)
    expect(off?.status).toBe("FEATURE_UNDER_GATING")
    expect(keylessValidationStatus(v.keyless, () => true)?.status).toBe("INVALID_SIGNATURE")
    expect(keylessValidationStatus([], () => false)).toBeUndefined()
  })
})
