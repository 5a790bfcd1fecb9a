/**
 * `preverifySignature`: which transactions have their Ed25519 signature verified on the thread
 * pool before admission (Ed25519, SingleSender with an Ed25519 single key), over the same signing
 * message the executor checks, and that nothing else is pre-verified.
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { describe, expect, it } from "vitest"
import { preverifySignature } from "../../../src/chain/mempool/preverifySignature.js"
import { signingMessage } from "../../../src/domain/signingMessage.js"
import type { SignedTransaction } from "../../../src/domain/Transaction.js"
import { verifySignature } from "../../../src/execution/verifySignature.js"
import { signedTxn } from "../fakeChain.js"

const secret = new Uint8Array(32).fill(3)
const publicKey = ed25519.getPublicKey(secret)
const raw = { ...signedTxn(3, 7n).rawTransaction, sender: new Uint8Array(32).fill(0xab) }
const signature = ed25519.sign(signingMessage(raw), secret)

const ed25519Txn: SignedTransaction = { rawTransaction: raw, authenticator: { _tag: "Ed25519", publicKey, signature } }
const singleKeyTxn: SignedTransaction = {
  rawTransaction: raw,
  authenticator: {
    _tag: "SingleSender",
    sender: {
      _tag: "SingleKey",
      publicKey: { _tag: "Ed25519", publicKey },
      signature: { _tag: "Ed25519", signature }
    }
  }
}

describe("preverifySignature", () => {
  it("verifies an Ed25519 transaction over its RawTransaction signing message", async () => {
    expect(await preverifySignature(ed25519Txn)).toBe(true)
    expect(verifySignature(ed25519Txn)._tag).toBe("Valid")
  })

  it("verifies a SingleSender transaction with an Ed25519 single key", async () => {
    expect(await preverifySignature(singleKeyTxn)).toBe(true)
    expect(verifySignature(singleKeyTxn)._tag).toBe("Valid")
  })

  it("a signature over another message is not verified (and validation still refuses it)", async () => {
    const tampered: SignedTransaction = { ...ed25519Txn, rawTransaction: { ...raw, sequenceNumber: 8n } }
    expect(await preverifySignature(tampered)).toBe(false)
    expect(verifySignature(tampered)._tag).toBe("Invalid")
  })

  it("leaves other authenticators to validation (undefined: nothing started)", () => {
    expect(
      preverifySignature({ rawTransaction: raw, authenticator: { _tag: "MultiEd25519", publicKey, signature } })
    ).toBeUndefined()
    expect(
      preverifySignature({
        rawTransaction: raw,
        authenticator: { _tag: "SingleSender", sender: { _tag: "NoAccountAuthenticator" } }
      })
    ).toBeUndefined()
  })
})
