/**
 * The pool keeps a transaction as its bytes and the signature check admission made
 * (`poolEntryOf`), and decodes it again where it is needed (`pooledTransaction`): the copy equals
 * what was submitted, is a new object each time (nothing decoded stays with the entry), and carries
 * the admission's check, so the block's execution does not verify the signature again — and a copy
 * of an entry without a check is checked as any transaction is.
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
  it("decodes what was submitted, a new object each time, with the admission's signature check", () => {
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
    // Each copy answers with the admission's check object: nothing is verified again.
    assert.strictEqual(knownSignatureCheck(first), check)
    assert.strictEqual(verifySignature(second), check)
  })

  it("hands the copy the check it was given, not one made again", () => {
    // A forged signature with a Valid check handed over: the copy answers what it was given.
    const forged = transfer(true)
    const given = verifySignature(transfer())
    const copy = pooledTransaction({ signedBcs: bytesOf(forged), signatureCheck: given, hashKey: "test" })
    assert.strictEqual(verifySignature(copy), given)
  })

  it("checks a copy whose entry has no check as any transaction (a forged signature stays invalid)", () => {
    const forged = transfer(true)
    const entry = poolEntryOf(forged, bytesOf(forged), 0, verifySignature(forged))
    assert.strictEqual(entry.signatureCheck?._tag, "Invalid") // kept too: a copy of it answers the same
    const unchecked = pooledTransaction({ ...entry, signatureCheck: undefined })
    assert.strictEqual(knownSignatureCheck(unchecked), undefined)
    assert.strictEqual(verifySignature(unchecked)._tag, "Invalid")
  })

  it("names the entry when its bytes no longer decode", () => {
    const t = transfer()
    const entry = { ...poolEntryOf(t, bytesOf(t), 0), signedBcs: Uint8Array.of(1, 2, 3) }
    assert.throws(() => pooledTransaction(entry), new RegExp(`pooled transaction ${entry.hashKey} no longer decodes`))
  })
})
