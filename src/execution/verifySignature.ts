/**
 * A signed transaction's signature check, as the reference's `SignedTransaction::check_signature`
 * (`TransactionAuthenticator::verify`) does before the VM runs:
 * - at most `MAX_NUM_OF_SIGS` (32) signatures across the sender and the secondary signers (the fee
 *   payer's are not counted, as in the reference);
 * - Ed25519 / MultiEd25519 / SingleSender: the sender's authenticator over `RawTransaction`;
 * - MultiAgent: every signer over `RawTransactionWithData::MultiAgent`;
 * - FeePayer: sender and secondaries over the fee-payer message with fee payer 0x0, those that fail
 *   retried with the real fee-payer address; the fee payer over the real address.
 * The answer is data, never a throw: Valid (with the signers the prologue needs and the keyless
 * authenticators the keyless stage must look at), or Invalid with the reference's status
 * (INVALID_SIGNATURE) and a reason for logs and errors. Feature gates are separate
 * (`signatures/features.ts`): the executor checks them around this call.
 */
import { ADDRESS_LENGTH } from "../domain/AccountAddress.js"
import type { SignedTransaction } from "../domain/Transaction.js"
import type { AccountAuthenticator } from "../domain/TransactionAuthenticator.js"
import { numberOfSignatures, verifyAccountAuthenticator } from "./signatures/accountAuthenticator.js"
import { ed25519SignerOf } from "./signatures/ed25519Signer.js"
import { type KeylessAuthenticator, keylessAuthenticators } from "./signatures/keylessAuthenticators.js"
import {
  feePayerSubject,
  multiAgentSubject,
  rawTransactionSubject,
  type SigningSubject
} from "./signatures/SigningSubject.js"
import {
  senderAuthenticator,
  signersOf,
  type TransactionSigners,
  transactionSigners
} from "./signatures/transactionSigners.js"

/** `MAX_NUM_OF_SIGS`: signatures allowed across the sender's and the secondary signers' authenticators. */
export const MAX_NUM_OF_SIGS = 32

export type SignatureCheck =
  | {
      readonly _tag: "Valid"
      readonly signers: TransactionSigners
      /** Keyless authenticators whose ephemeral signatures verified; the keyless stage still applies. */
      readonly keyless: ReadonlyArray<KeylessAuthenticator>
    }
  | { readonly _tag: "Invalid"; readonly status: "INVALID_SIGNATURE"; readonly reason: string }

const invalid = (reason: string): SignatureCheck => ({ _tag: "Invalid", status: "INVALID_SIGNATURE", reason })

const ZERO_ADDRESS = new Uint8Array(ADDRESS_LENGTH)

const verifyAll = (
  signers: ReadonlyArray<readonly [string, AccountAuthenticator]>,
  subject: SigningSubject
): string | undefined => {
  for (const [who, a] of signers) {
    const failure = verifyAccountAuthenticator(a, subject)
    if (failure !== undefined) return `${who}: ${failure}`
  }
  return undefined
}

const check = (txn: SignedTransaction): string | undefined => {
  const a = txn.authenticator
  const raw = txn.rawTransaction
  switch (a._tag) {
    case "Ed25519":
    case "MultiEd25519":
    case "SingleSender":
      return verifyAll([["sender", senderAuthenticator(txn)]], rawTransactionSubject(raw))
    case "MultiAgent": {
      const subject = multiAgentSubject(raw, a.secondarySignerAddresses)
      return verifyAll(
        [["sender", a.sender], ...a.secondarySigners.map((s, i) => [`secondary signer ${i}`, s] as const)],
        subject
      )
    }
    case "FeePayer": {
      const withZero = feePayerSubject(raw, a.secondarySignerAddresses, ZERO_ADDRESS)
      const withFeePayer = feePayerSubject(raw, a.secondarySignerAddresses, a.feePayerAddress)
      const remaining: Array<readonly [string, AccountAuthenticator]> = []
      const signers = [
        ["sender", a.sender] as const,
        ...a.secondarySigners.map((s, i) => [`secondary signer ${i}`, s] as const)
      ]
      for (const s of signers) if (verifyAccountAuthenticator(s[1], withZero) !== undefined) remaining.push(s)
      remaining.push(["fee payer", a.feePayerSigner])
      return verifyAll(remaining, withFeePayer)
    }
  }
}

const signatureCount = (txn: SignedTransaction): number => {
  const a = txn.authenticator
  let n = numberOfSignatures(senderAuthenticator(txn))
  if (a._tag === "MultiAgent" || a._tag === "FeePayer") for (const s of a.secondarySigners) n += numberOfSignatures(s)
  return n
}

/**
 * Checks made by `verifySignature`, by transaction object: a signed transaction is immutable and
 * its check depends on its bytes alone, so a caller asking twice (the mempool's in-thread
 * validation, then `knownSignatureCheck` for the pool entry) checks once. Entries go with their
 * transactions. The hot path does not come here: admission's check travels with the pooled bytes
 * (`PoolEntry.signatureCheck`) into the block's execution (`ExecuteOptions.signatureCheck`), not
 * in this map (issue 22: a `WeakMap` entry per transaction copy, set twice on the chain's thread
 * and once on the worker, cost the event loop ~0.6 % of its samples in sets and write barriers,
 * and the scavenges ephemeron work; docs/benchmarks.md, "Session 60").
 */
const checked = new WeakMap<SignedTransaction, SignatureCheck>()

/**
 * The check of a single-key Ed25519 transaction (`ed25519SignerOf`) whose one signature the caller
 * verified strictly over its raw transaction's signing message (the admission worker does, on its
 * copy; the chain's thread, told so by the worker's verdict, on its own copy of the same bytes):
 * Valid, with the signers a check would give. Undefined for any other kind, which
 * `verifySignature` checks. Only a verification may make one: it is trusted as given.
 */
export const ed25519VerifiedCheck = (txn: SignedTransaction): SignatureCheck | undefined =>
  // The signers found anew, not remembered by object: the check is what the caller keeps.
  ed25519SignerOf(txn) === undefined ? undefined : { _tag: "Valid", signers: signersOf(txn), keyless: [] }

/** The check `verifySignature` made of this object so far, if any (what the pool keeps with the bytes). */
export const knownSignatureCheck = (txn: SignedTransaction): SignatureCheck | undefined => checked.get(txn)

export const verifySignature = (txn: SignedTransaction): SignatureCheck => {
  let c = checked.get(txn)
  if (c === undefined) {
    c = checkSignature(txn)
    checked.set(txn, c)
  }
  return c
}

const checkSignature = (txn: SignedTransaction): SignatureCheck => {
  try {
    const count = signatureCount(txn)
    if (count > MAX_NUM_OF_SIGS) return invalid(`${count} signatures, more than the ${MAX_NUM_OF_SIGS} allowed`)
    const failure = check(txn)
    if (failure !== undefined) return invalid(failure)
    return { _tag: "Valid", signers: transactionSigners(txn), keyless: keylessAuthenticators(txn.authenticator) }
  } catch (e) {
    // The checks above guard every library call; this only keeps a bug from escaping as a throw.
    return invalid(`signature check failed: ${e instanceof Error ? e.message.slice(0, 200) : "unknown error"}`)
  }
}
