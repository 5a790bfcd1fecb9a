import { describe, expect, it } from "vitest"
import { BcsWriter } from "../../../src/bcs/index.js"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import { writeKeylessPublicKey, writeWebAuthnSignature } from "../../../src/domain/CryptoMaterialCodec.js"
import type { AccountAuthenticator } from "../../../src/domain/TransactionAuthenticator.js"
import { signatureJson } from "../../../src/node/render/signatureJson.js"

const b = (n: number, len: number) => new Uint8Array(len).fill(n)
const hex = (x: Uint8Array) => `0x${Buffer.from(x).toString("hex")}`
const ed: AccountAuthenticator = { _tag: "Ed25519", publicKey: b(1, 32), signature: b(2, 64) }
const edJson = { public_key: hex(b(1, 32)), signature: hex(b(2, 64)), type: "ed25519_signature" }

describe("signatureJson", () => {
  it("Ed25519 and MultiEd25519 (packed keys ‖ threshold, signatures ‖ bitmap, unpacked)", () => {
    expect(signatureJson({ _tag: "Ed25519", publicKey: b(1, 32), signature: b(2, 64) })).toEqual(edJson)
    const keys = Uint8Array.from([...b(3, 32), ...b(4, 32), 2])
    const sigs = Uint8Array.from([...b(5, 64), ...b(6, 64), 0xc0, 0, 0, 0])
    expect(signatureJson({ _tag: "MultiEd25519", publicKey: keys, signature: sigs })).toEqual({
      public_keys: [hex(b(3, 32)), hex(b(4, 32))],
      signatures: [hex(b(5, 64)), hex(b(6, 64))],
      threshold: 2,
      bitmap: "0xc0000000",
      type: "multi_ed25519_signature"
    })
  })

  it("multi-agent and fee payer carry their secondary signers and fee payer", () => {
    expect(
      signatureJson({
        _tag: "MultiAgent",
        sender: ed,
        secondarySignerAddresses: [addressFromNumber(0xb)],
        secondarySigners: [ed]
      })
    ).toEqual({
      sender: edJson,
      secondary_signer_addresses: ["0xb"],
      secondary_signers: [edJson],
      type: "multi_agent_signature"
    })
    expect(
      signatureJson({
        _tag: "FeePayer",
        sender: ed,
        secondarySignerAddresses: [],
        secondarySigners: [],
        feePayerAddress: addressFromNumber(0xfee),
        feePayerSigner: { _tag: "NoAccountAuthenticator" }
      })
    ).toEqual({
      sender: edJson,
      secondary_signer_addresses: [],
      secondary_signers: [],
      fee_payer_address: "0xfee",
      fee_payer_signer: { type: "no_account_signature" },
      type: "fee_payer_signature"
    })
  })

  it("single sender: the account signature typed single_sender; keys and signatures of every kind", () => {
    expect(signatureJson({ _tag: "SingleSender", sender: ed })).toEqual({ ...edJson, type: "single_sender" })
    const keyless = { issVal: "https://accounts.google.com", idc: b(7, 32) }
    const web = { signature: b(8, 64), authenticatorData: b(9, 37), clientDataJson: b(10, 20) }
    const json = signatureJson({
      _tag: "SingleSender",
      sender: {
        _tag: "MultiKey",
        publicKeys: [
          { _tag: "Secp256k1Ecdsa", publicKey: b(11, 65) },
          { _tag: "Keyless", publicKey: keyless },
          { _tag: "Secp256r1Ecdsa", publicKey: b(12, 65) }
        ],
        signaturesRequired: 2,
        signatures: [
          { _tag: "Secp256k1Ecdsa", signature: b(13, 64) },
          { _tag: "WebAuthn", signature: web }
        ],
        bitmap: Uint8Array.from([0xa0, 0, 0, 0])
      }
    })
    const keylessBcs = new BcsWriter(64)
    writeKeylessPublicKey(keylessBcs, keyless)
    const webBcs = new BcsWriter(64)
    writeWebAuthnSignature(webBcs, web)
    expect(json).toEqual({
      public_keys: [
        { value: hex(b(11, 65)), type: "secp256k1_ecdsa" },
        { value: hex(keylessBcs.toBytes()), type: "keyless" },
        { value: hex(b(12, 65)), type: "secp256r1_ecdsa" }
      ],
      // Bits 0 and 2 of the bitmap are set: the signatures are of keys 0 and 2.
      signatures: [
        { index: 0, signature: { value: hex(b(13, 64)), type: "secp256k1_ecdsa" } },
        { index: 2, signature: { value: hex(webBcs.toBytes()), type: "web_authn" } }
      ],
      signatures_required: 2,
      type: "single_sender"
    })
    expect(
      signatureJson({
        _tag: "SingleSender",
        sender: {
          _tag: "SingleKey",
          publicKey: { _tag: "Ed25519", publicKey: b(1, 32) },
          signature: { _tag: "Ed25519", signature: b(2, 64) }
        }
      })
    ).toEqual({
      public_key: { value: hex(b(1, 32)), type: "ed25519" },
      signature: { value: hex(b(2, 64)), type: "ed25519" },
      type: "single_sender"
    })
    expect(
      signatureJson({
        _tag: "SingleSender",
        sender: {
          _tag: "Abstraction",
          functionInfo: { moduleAddress: addressFromNumber(0xaa), moduleName: "auth", functionName: "authenticate" },
          authData: { _tag: "V1", signingMessageDigest: b(1, 2), authenticator: b(2, 1) }
        }
      })
    ).toEqual({ function_info: "0xaa::auth::authenticate", auth_data: "0x000201010102", type: "single_sender" })
  })
})
