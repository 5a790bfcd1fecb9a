/**
 * verifySignature against the TypeScript SDK as the oracle: transactions signed by the SDK's
 * accounts (Ed25519, SingleKey Ed25519/Secp256k1, MultiKey, legacy MultiEd25519, multi-agent, fee
 * payer) decode with our codec and verify; every tampered byte either breaks decoding, fails
 * verification, or changes the auth key the prologue compares (keys that did not sign are not
 * covered by any signature, as in the reference); garbage authenticators never throw.
 */
import {
  AbstractedAccount,
  AccountAddress,
  Deserializer,
  Ed25519Account,
  Ed25519PrivateKey,
  MultiEd25519Account,
  MultiEd25519PublicKey,
  MultiKey,
  MultiKeyAccount,
  generateSignedTransaction,
  RawTransaction,
  Secp256k1PrivateKey,
  SimpleTransaction,
  SingleKeyAccount
} from "@aptos-labs/ts-sdk"
import fc from "fast-check"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { Bcs, toHex } from "../../src/bcs/index.js"
import { rawTransactionCodec, signedTransactionCodec } from "../../src/domain/PayloadCodec.js"
import type { SignedTransaction } from "../../src/domain/Transaction.js"
import type { AccountAuthenticator } from "../../src/domain/TransactionAuthenticator.js"
import { optionalAuthKey, signersOf, transactionSigners } from "../../src/execution/signatures/index.js"
import {
  ed25519VerifiedCheck,
  knownSignatureCheck,
  MAX_NUM_OF_SIGS,
  verifySignature
} from "../../src/execution/verifySignature.js"
import * as arb from "../domain/arbitraries.js"
import { decodeSigned, signedFeePayer, signedMultiAgent, signedSimple } from "./sdkSigned.js"

const key = (n: number) => new Ed25519PrivateKey(new Uint8Array(32).fill(n))
const secpKey = (n: number) => new Secp256k1PrivateKey(new Uint8Array(32).fill(n))

const ed = (n: number) => new Ed25519Account({ privateKey: key(n) })
const singleEd = (n: number) => new SingleKeyAccount({ privateKey: key(n) })
const singleSecp = (n: number) => new SingleKeyAccount({ privateKey: secpKey(n) })

const multiKey = () => {
  const signers = [singleEd(11), singleSecp(12)]
  const mk = new MultiKey({
    publicKeys: [signers[0]!.publicKey, ed(13).publicKey, signers[1]!.publicKey],
    signaturesRequired: 2
  })
  return new MultiKeyAccount({ multiKey: mk, signers })
}

const multiEd = () => {
  const keys = [key(21), key(22), key(23)]
  const publicKey = new MultiEd25519PublicKey({ publicKeys: keys.map((k) => k.publicKey()), threshold: 2 })
  return new MultiEd25519Account({ publicKey, signers: [keys[0]!, keys[2]!] })
}

const expectValid = (txn: SignedTransaction) => {
  const v = verifySignature(txn)
  if (v._tag === "Invalid") throw new Error(v.reason)
  return v
}

const authKeyHex = (a: { publicKey: { authKey(): { toString(): string } } }) => a.publicKey.authKey().toString()

const senderKeyHex = (txn: SignedTransaction) => {
  const k = transactionSigners(txn).sender.authKey
  return k === undefined ? undefined : "0x" + toHex(k)
}

/**
 * Every single-byte change of `bytes` (xor 0x01 at each position; all positions, or `sample` of
 * them) must not leave a transaction that verifies with the same signers' auth keys.
 */
const expectTamperProof = (bytes: Uint8Array, sample?: number) => {
  const original = decodeSigned(bytes)
  const keysOf = (t: SignedTransaction) => {
    const s = transactionSigners(t)
    return [s.sender.authKey, ...s.secondarySigners.map((x) => x.authKey), s.feePayer?.authKey]
      .map((k) => (k === undefined ? "-" : toHex(k)))
      .concat([
        toHex(s.sender.address),
        ...s.secondarySignerAddresses.map(toHex),
        toHex(s.feePayer?.address ?? new Uint8Array())
      ])
      .join(",")
  }
  const keys = keysOf(original)
  const positions = Array.from({ length: bytes.length }, (_, i) => i)
  const step = sample === undefined ? 1 : Math.max(1, Math.floor(bytes.length / sample))
  let checked = 0
  for (let i = 0; i < positions.length; i += step) {
    const t = bytes.slice()
    t[i]! ^= 1
    const d = Bcs.decode(signedTransactionCodec, t)
    if (Result.isFailure(d)) continue
    const v = verifySignature(d.success)
    checked++
    if (v._tag === "Valid" && keysOf(d.success) === keys)
      throw new Error(`byte ${i} flipped still verifies with the same signers`)
  }
  expect(checked).toBeGreaterThan(0)
}

describe("verifySignature (SDK-signed transactions)", () => {
  it("Ed25519 account: TransactionAuthenticator::Ed25519, auth key = the SDK's", () => {
    const a = ed(1)
    const bytes = signedSimple(a)
    const txn = decodeSigned(bytes)
    expect(txn.authenticator._tag).toBe("Ed25519")
    const v = expectValid(txn)
    expect("0x" + toHex(v.signers.sender.authKey!)).toBe(authKeyHex(a))
    expect(v.signers.feePayer).toBeUndefined()
    expect(v.keyless).toEqual([])
    expectTamperProof(bytes)
    // Checked once per object (the pool's validation, then the block's execution): the same answer
    // object again; a tampered copy decoded anew is checked on its own (above).
    expect(verifySignature(txn)).toBe(v)
  })

  it("SingleKey Ed25519 and Secp256k1 accounts: SingleSender, auth keys = the SDK's", () => {
    for (const a of [singleEd(2), singleSecp(3)]) {
      const bytes = signedSimple(a)
      const txn = decodeSigned(bytes)
      expect(txn.authenticator._tag).toBe("SingleSender")
      expectValid(txn)
      expect(senderKeyHex(txn)).toBe(authKeyHex(a))
      expect(senderKeyHex(txn)).toBe(a.accountAddress.toStringLong())
      expectTamperProof(bytes, 120)
    }
  })

  it("MultiKey account (2 of 3, Ed25519 + Secp256k1 signing): valid, auth key = the SDK's", () => {
    const a = multiKey()
    const bytes = signedSimple(a)
    const txn = decodeSigned(bytes)
    expect(txn.authenticator._tag).toBe("SingleSender")
    expectValid(txn)
    expect(senderKeyHex(txn)).toBe(authKeyHex(a))
    expectTamperProof(bytes, 80)
  })

  it("legacy MultiEd25519 account (2 of 3): TransactionAuthenticator::MultiEd25519, auth key = the SDK's", () => {
    const a = multiEd()
    const bytes = signedSimple(a)
    const txn = decodeSigned(bytes)
    expect(txn.authenticator._tag).toBe("MultiEd25519")
    expectValid(txn)
    expect(senderKeyHex(txn)).toBe(authKeyHex(a))
    expectTamperProof(bytes, 80)
  })

  it("multi-agent: sender and two secondary signers over RawTransactionWithData::MultiAgent", () => {
    const secondaries = [singleSecp(5), ed(6)]
    const bytes = signedMultiAgent(ed(4), secondaries)
    const txn = decodeSigned(bytes)
    expect(txn.authenticator._tag).toBe("MultiAgent")
    const v = expectValid(txn)
    expect(v.signers.secondarySignerAddresses.map((x) => "0x" + toHex(x))).toEqual(
      secondaries.map((s) => s.accountAddress.toStringLong())
    )
    expect(v.signers.secondarySigners.map((s) => "0x" + toHex(s.authKey!))).toEqual(secondaries.map(authKeyHex))
    expectTamperProof(bytes, 100)
  })

  it("fee payer: signers over fee payer 0x0 or the real address both verify; the fee payer over the real one", () => {
    const feePayer = singleEd(9)
    for (const zero of [
      { sender: true, secondaries: false },
      { sender: false, secondaries: true },
      { sender: false, secondaries: false },
      { sender: true, secondaries: true }
    ]) {
      const bytes = signedFeePayer(ed(7), [singleSecp(8)], feePayer, zero)
      const txn = decodeSigned(bytes)
      expect(txn.authenticator._tag).toBe("FeePayer")
      const v = expectValid(txn)
      expect("0x" + toHex(v.signers.feePayer!.address)).toBe(feePayer.accountAddress.toStringLong())
      expect("0x" + toHex(v.signers.feePayer!.authKey!)).toBe(authKeyHex(feePayer))
    }
    expectTamperProof(signedFeePayer(ed(7), [], feePayer, { sender: true, secondaries: false }), 100)
  })

  it("fee payer that signed over 0x0 fails: the fee payer must sign over its own address", () => {
    const feePayer = ed(9)
    const sender = ed(7)
    const bytes = signedFeePayer(sender, [], feePayer, { sender: true, secondaries: true })
    const txn = decodeSigned(bytes)
    if (txn.authenticator._tag !== "FeePayer") throw new Error("expected FeePayer")
    // Re-sign the fee payer's part over the 0x0 message: take a sender-style signature of the fee payer.
    const asZero = decodeSigned(signedFeePayer(feePayer, [], feePayer, { sender: true, secondaries: true }))
    if (asZero.authenticator._tag !== "FeePayer") throw new Error("expected FeePayer")
    const forged: SignedTransaction = {
      rawTransaction: txn.rawTransaction,
      authenticator: { ...txn.authenticator, feePayerSigner: asZero.authenticator.sender }
    }
    expect(verifySignature(forged)._tag).toBe("Invalid")
  })

  it("a signature over another transaction fails (sequence number differs)", () => {
    const a = ed(1)
    const good = decodeSigned(signedSimple(a, 7n))
    const other = decodeSigned(signedSimple(a, 8n))
    const swapped: SignedTransaction = { rawTransaction: good.rawTransaction, authenticator: other.authenticator }
    const v = verifySignature(swapped)
    expect(v._tag).toBe("Invalid")
    if (v._tag === "Invalid") expect(v.status).toBe("INVALID_SIGNATURE")
  })
})

describe("ed25519VerifiedCheck (a verification made elsewhere: the admission worker's)", () => {
  /** `sender`'s transaction 7 with the authenticator of its transaction 8: a signature over another transaction. */
  const swappedOf = (sender: Parameters<typeof signedSimple>[0]): SignedTransaction => ({
    rawTransaction: decodeSigned(signedSimple(sender, 7n)).rawTransaction,
    authenticator: decodeSigned(signedSimple(sender, 8n)).authenticator
  })

  it("a single-key Ed25519 transaction's is Valid with the signers a check gives, and remembers nothing", () => {
    for (const sender of [ed(1), singleEd(3)]) {
      const good = decodeSigned(signedSimple(sender))
      const made = ed25519VerifiedCheck(good)
      expect(made?._tag).toBe("Valid")
      if (made?._tag !== "Valid") return
      const checked = expectValid({ ...good })
      expect(made.signers).toEqual(checked.signers)
      expect(made.keyless).toEqual([])
      // The check is the caller's to keep: the object is not marked verified by it, so a forged
      // transaction handed to it is still refused by verifySignature.
      const forged = swappedOf(sender)
      expect(ed25519VerifiedCheck(forged)?._tag).toBe("Valid")
      expect(knownSignatureCheck(forged)).toBeUndefined()
      expect(verifySignature(forged)._tag).toBe("Invalid")
    }
  })

  it("any other kind gets none: verifySignature checks it", () => {
    for (const sender of [singleSecp(4), multiEd(), multiKey()]) {
      const forged = swappedOf(sender)
      expect(ed25519VerifiedCheck(forged)).toBeUndefined()
      expect(verifySignature(forged)._tag).toBe("Invalid")
    }
  })

  it("verifySignature's check is remembered for its object (what the pool keeps), not for an equal copy", () => {
    const t = decodeSigned(signedSimple(ed(6)))
    expect(knownSignatureCheck(t)).toBeUndefined()
    const v = verifySignature(t)
    expect(knownSignatureCheck(t)).toBe(v)
    expect(verifySignature(t)).toBe(v)
    expect(knownSignatureCheck({ ...t })).toBeUndefined()
  })

  it("transactionSigners answers the same object for the same transaction, equal to a fresh copy's and to signersOf's", () => {
    const t = decodeSigned(signedSimple(singleSecp(5)))
    expect(transactionSigners(t)).toBe(transactionSigners(t))
    expect(transactionSigners(t)).toEqual(transactionSigners({ ...t }))
    expect(signersOf(t)).toEqual(transactionSigners(t))
    expect(signersOf(t)).not.toBe(transactionSigners(t))
  })
})

describe("verifySignature (limits and special authenticators)", () => {
  const base = decodeSigned(signedSimple(ed(1)))
  const edAuth = (() => {
    if (base.authenticator._tag !== "Ed25519") throw new Error("expected Ed25519")
    const { publicKey, signature } = base.authenticator
    return { _tag: "Ed25519", publicKey, signature } as const
  })()

  it("NoAccountAuthenticator never verifies (simulation only), and has no auth key", () => {
    const txn: SignedTransaction = {
      rawTransaction: base.rawTransaction,
      authenticator: { _tag: "SingleSender", sender: { _tag: "NoAccountAuthenticator" } }
    }
    const v = verifySignature(txn)
    expect(v._tag).toBe("Invalid")
    expect(transactionSigners(txn).sender.authKey).toBeUndefined()
  })

  it(`more than ${MAX_NUM_OF_SIGS} signatures across sender and secondaries: refused before any verification`, () => {
    const secondarySigners: AccountAuthenticator[] = Array.from({ length: MAX_NUM_OF_SIGS }, () => edAuth)
    const txn: SignedTransaction = {
      rawTransaction: base.rawTransaction,
      authenticator: {
        _tag: "MultiAgent",
        sender: edAuth,
        secondarySignerAddresses: secondarySigners.map(() => base.rawTransaction.sender),
        secondarySigners
      }
    }
    const v = verifySignature(txn)
    expect(v._tag === "Invalid" && v.reason).toMatch(/33 signatures/)
  })

  it("Abstraction: only the AASigningData digest is checked here (the SDK's AbstractedAccount signs); no auth key", () => {
    const fn = "0x1::permissioned_delegation::authenticate" as const
    const abstracted = (authenticationFunction: `${string}::${string}::${string}`) =>
      new AbstractedAccount({
        signer: () => new Uint8Array([1, 2]),
        accountAddress: AccountAddress.from(toHex(base.rawTransaction.sender)),
        authenticationFunction
      })
    const transaction = new SimpleTransaction(
      RawTransaction.deserialize(new Deserializer(Bcs.encode(rawTransactionCodec, base.rawTransaction)))
    )
    const sign = (authenticationFunction: `${string}::${string}::${string}`) =>
      decodeSigned(
        generateSignedTransaction({
          transaction,
          senderAuthenticator: abstracted(authenticationFunction).signTransactionWithAuthenticator(transaction)
        })
      )
    const good = sign(fn)
    expect(good.authenticator).toMatchObject({ _tag: "SingleSender", sender: { _tag: "Abstraction" } })
    expect(verifySignature(good)._tag).toBe("Valid")
    // The digest covers the authentication function: naming another function breaks it.
    const sender = good.authenticator._tag === "SingleSender" ? good.authenticator.sender : undefined
    if (sender?._tag !== "Abstraction") throw new Error("not an abstraction")
    const forged: SignedTransaction = {
      rawTransaction: good.rawTransaction,
      authenticator: {
        _tag: "SingleSender",
        sender: { ...sender, functionInfo: { ...sender.functionInfo, moduleName: "any" } }
      }
    }
    expect(verifySignature(forged)._tag).toBe("Invalid")
    expect(verifySignature({ ...good, rawTransaction: { ...good.rawTransaction, maxGasAmount: 1n } })._tag).toBe(
      "Invalid"
    )
    expect(optionalAuthKey({ _tag: "NoAccountAuthenticator" })).toBeUndefined()
  })

  it("garbage authenticators never throw (fast-check over the domain's authenticator shapes)", () => {
    fc.assert(
      fc.property(arb.signedTransaction, (txn) => {
        const v = verifySignature(txn)
        expect(["Valid", "Invalid"]).toContain(v._tag)
        transactionSigners(txn)
      }),
      { numRuns: 300 }
    )
  })

  it("random bytes decoded as signed transactions never make verification throw", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => {
        const d = Bcs.decode(signedTransactionCodec, bytes)
        if (Result.isSuccess(d)) expect(["Valid", "Invalid"]).toContain(verifySignature(d.success)._tag)
      }),
      { numRuns: 300 }
    )
  })
})
