import fc from "fast-check"
import * as Result from "effect/Result"
import { describe, expect, it } from "vitest"
import { toHex } from "../../../src/bcs/index.js"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import { signatureFromJson } from "../../../src/node/submit/signatureFromJson.js"

const h = (n: number, b: number) => `0x${toHex(new Uint8Array(n).fill(b))}`
const bytes = (n: number, b: number) => new Uint8Array(n).fill(b)
const ok = (json: unknown) => {
  const r = signatureFromJson(json)
  if (Result.isFailure(r)) throw new Error(r.failure)
  return r.success
}

describe("signatureFromJson", () => {
  it("reads ed25519 and multi-ed25519 transaction signatures (multi-ed25519 packed as in BCS)", () => {
    expect(ok({ type: "ed25519_signature", public_key: h(32, 1), signature: h(64, 2) })).toEqual({
      _tag: "Ed25519",
      publicKey: bytes(32, 1),
      signature: bytes(64, 2)
    })
    const multi = ok({
      type: "multi_ed25519_signature",
      public_keys: [h(32, 1), h(32, 2)],
      signatures: [h(64, 3)],
      threshold: 1,
      bitmap: "0x40000000"
    })
    expect(multi._tag).toBe("MultiEd25519")
    if (multi._tag !== "MultiEd25519") return
    expect(multi.publicKey.length).toBe(65)
    expect(multi.publicKey[64]).toBe(1)
    expect(multi.signature.length).toBe(68)
    expect([...multi.signature.slice(64)]).toEqual([0x40, 0, 0, 0])
  })

  it("reads single-sender single-key and multi-key signatures, building the bitmap from the indices", () => {
    const single = ok({
      type: "single_sender",
      public_key: { type: "ed25519", value: h(32, 1) },
      signature: { type: "ed25519", value: h(64, 2) }
    })
    expect(single).toEqual({
      _tag: "SingleSender",
      sender: {
        _tag: "SingleKey",
        publicKey: { _tag: "Ed25519", publicKey: bytes(32, 1) },
        signature: { _tag: "Ed25519", signature: bytes(64, 2) }
      }
    })
    const multi = ok({
      type: "single_sender",
      public_keys: [
        { type: "ed25519", value: h(32, 1) },
        { type: "secp256k1_ecdsa", value: h(65, 4) }
      ],
      signatures: [
        { index: 1, signature: { type: "secp256k1_ecdsa", value: h(64, 5) } },
        { index: 0, signature: { type: "ed25519", value: h(64, 6) } }
      ],
      signatures_required: 2
    })
    expect(multi._tag === "SingleSender" && multi.sender._tag === "MultiKey" && [...multi.sender.bitmap]).toEqual([
      0xc0, 0, 0, 0
    ])
    expect(multi._tag === "SingleSender" && multi.sender._tag === "MultiKey" && multi.sender.signatures[0]!._tag).toBe(
      "Ed25519"
    )
  })

  it("reads multi-agent and fee-payer signatures with their secondary signers", () => {
    const sender = { type: "ed25519_signature", public_key: h(32, 1), signature: h(64, 2) }
    const feePayer = ok({
      type: "fee_payer_signature",
      sender,
      secondary_signer_addresses: ["0x2"],
      secondary_signers: [{ type: "no_account_signature" }],
      fee_payer_address: "0x3",
      fee_payer_signer: sender
    })
    expect(feePayer).toMatchObject({
      _tag: "FeePayer",
      secondarySignerAddresses: [addressFromNumber(2)],
      secondarySigners: [{ _tag: "NoAccountAuthenticator" }],
      feePayerAddress: addressFromNumber(3)
    })
    expect(
      ok({ type: "multi_agent_signature", sender, secondary_signer_addresses: [], secondary_signers: [] })._tag
    ).toBe("MultiAgent")
  })

  it("refuses malformed signatures with a reason", () => {
    for (const bad of [
      null,
      { type: "ed25519_signature", public_key: h(31, 1), signature: h(64, 2) },
      { type: "ed25519_signature", public_key: "zz", signature: h(64, 2) },
      { type: "multi_agent_signature", sender: {}, secondary_signer_addresses: ["0x1"], secondary_signers: [] },
      { type: "single_sender", public_keys: [], signatures: [], signatures_required: 1 },
      { type: "nope" }
    ])
      expect(Result.isFailure(signatureFromJson(bad))).toBe(true)
  })

  it("never throws on garbage", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (v) => {
        signatureFromJson(v)
        if (typeof v === "object" && v !== null && !Array.isArray(v)) signatureFromJson({ ...v, type: "single_sender" })
      })
    )
  })
})
