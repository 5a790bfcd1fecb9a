/** The feature gates checked before the signature (`validate_transaction`). */
import { describe, expect, it } from "vitest"
import type { TransactionAuthenticator } from "../../../src/domain/TransactionAuthenticator.js"
import { SignatureFeatureFlag, signatureFeatureGate } from "../../../src/execution/signatures/features.js"

const webAuthn: TransactionAuthenticator = {
  _tag: "FeePayer",
  sender: { _tag: "Ed25519", publicKey: new Uint8Array(32), signature: new Uint8Array(64) },
  secondarySignerAddresses: [],
  secondarySigners: [],
  feePayerAddress: new Uint8Array(32),
  feePayerSigner: {
    _tag: "MultiKey",
    publicKeys: [{ _tag: "Secp256r1Ecdsa", publicKey: new Uint8Array(65) }],
    signaturesRequired: 1,
    signatures: [
      {
        _tag: "WebAuthn",
        signature: {
          signature: new Uint8Array(64),
          authenticatorData: new Uint8Array(),
          clientDataJson: new Uint8Array()
        }
      }
    ],
    bitmap: new Uint8Array([0x80])
  }
}
const slh: TransactionAuthenticator = {
  _tag: "SingleSender",
  sender: {
    _tag: "SingleKey",
    publicKey: { _tag: "SlhDsaSha2_128s", publicKey: new Uint8Array(32) },
    signature: { _tag: "SlhDsaSha2_128s", signature: new Uint8Array(10) }
  }
}

describe("signatureFeatureGate", () => {
  const all = () => true
  const without = (flag: number) => (f: number) => f !== flag

  it("passes everything when the flags are on", () => {
    expect(signatureFeatureGate(webAuthn, all)).toBeUndefined()
    expect(signatureFeatureGate(slh, all)).toBeUndefined()
  })

  it("gates SingleSender (33), WebAuthn anywhere, fee payer included (44), SLH-DSA (107)", () => {
    expect(signatureFeatureGate(slh, without(SignatureFeatureFlag.SINGLE_SENDER_AUTHENTICATOR))?.status).toBe(
      "FEATURE_UNDER_GATING"
    )
    expect(signatureFeatureGate(webAuthn, without(SignatureFeatureFlag.WEBAUTHN_SIGNATURE))?.status).toBe(
      "FEATURE_UNDER_GATING"
    )
    expect(signatureFeatureGate(slh, without(SignatureFeatureFlag.SLH_DSA_SHA2_128S_SIGNATURE))?.status).toBe(
      "FEATURE_UNDER_GATING"
    )
    expect(signatureFeatureGate(webAuthn, without(SignatureFeatureFlag.SLH_DSA_SHA2_128S_SIGNATURE))).toBeUndefined()
  })
})
