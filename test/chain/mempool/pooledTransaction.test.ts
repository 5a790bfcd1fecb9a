/**
 * The pool keeps a transaction as its bytes and the signature check admission made
 * (`poolEntryOf`), and decodes it again where it is needed (`pooledTransaction`): the copy equals
 * what was submitted and is a new object each time (nothing decoded stays with the entry); the
 * admission's check stays with the entry (the block's execution is given it: admissionWorker.test.ts),
 * and a copy on its own is checked as any transaction is.
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { assert, describe, it } from "vitest"
import { Bcs } from "../../../src/bcs/index.js"
import { ed25519AuthKey } from "../../../src/chain/buildLocalGenesis.js"
import { poolEntryOf } from "../../../src/chain/mempool/poolEntryOf.js"
import { pooledTransaction } from "../../../src/chain/mempool/pooledTransaction.js"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import { signedTransactionCodec } from "../../../src/domain/PayloadCodec.js"
import { signingMessage } from "../../../src/domain/signingMessage.js"
import type { RawTransaction, SignedTransaction } from "../../../src/domain/Transaction.js"
import { knownSignatureCheck, verifySignature } from "../../../src/execution/verifySignature.js"
import { transferPayload } from "../../execution/fixtures.js"

const KEY = new Uint8Array(32).fill(31)

const transfer = (forged = false): SignedTransaction => {
  const raw: RawTransaction = {
    sender: ed25519AuthKey(ed25519.getPublicKey(KEY)),
    sequenceNumber: 3n,
    payload: transferPayload(addressFromNumber(0xb0b), 1000n),
    maxGasAmount: 20_000n,
    gasUnitPrice: 100n,
    expirationTimestampSecs: 4_000_000_000n,
    chainId: 4
  }
  const signature = ed25519.sign(signingMessage(raw), KEY)
  if (forged) signature[0] = signature[0]! ^ 1
  return { rawTransaction: raw, authenticator: { _tag: "Ed25519", publicKey: ed25519.getPublicKey(KEY), signature } }
}

const bytesOf = (t: SignedTransaction) => Bcs.encode(signedTransactionCodec, t)

describe("pooledTransaction", () => {
  it("decodes what was submitted, a new object each time; the entry keeps the admission's signature check", () => {
    const submitted = transfer()
    const check = verifySignature(submitted)
    assert.strictEqual(check._tag, "Valid")
    const entry = poolEntryOf(submitted, bytesOf(submitted), 0, knownSignatureCheck(submitted))
    assert.strictEqual(entry.signatureCheck, check)
    assert.isFalse("transaction" in entry)
    const first = pooledTransaction(entry)
    const second = pooledTransaction(entry)
    assert.deepStrictEqual(first, submitted)
    assert.notStrictEqual(first, second)
    // The check travels with the entry, given to the block's execution (ChainVm.executeUser), not
    // attached to the copies: a copy alone is checked as any transaction.
    assert.strictEqual(knownSignatureCheck(first), undefined)
    assert.strictEqual(verifySignature(second)._tag, "Valid")
    assert.notStrictEqual(verifySignature(second), check)
  })

  it("a copy of a forged transaction is refused when checked: the entry's check is what vouches for it", () => {
    const forged = transfer(true)
    const entry = poolEntryOf(forged, bytesOf(forged), 0, verifySignature(forged))
    assert.strictEqual(entry.signatureCheck?._tag, "Invalid") // kept too: the block's execution gets the same
    const copy = pooledTransaction(entry)
    assert.strictEqual(knownSignatureCheck(copy), undefined)
    assert.strictEqual(verifySignature(copy)._tag, "Invalid")
  })

  it("names the entry when its bytes no longer decode", () => {
    const t = transfer()
    const entry = { ...poolEntryOf(t, bytesOf(t), 0), signedBcs: Uint8Array.of(1, 2, 3) }
    assert.throws(() => pooledTransaction(entry), new RegExp(`pooled transaction ${entry.hashKey} no longer decodes`))
  })
})
