/**
 * Admission's signature check started off the event loop: for the common single-key Ed25519
 * transactions (authenticator Ed25519, or SingleSender with an Ed25519 SingleKey) the curve
 * equation runs on libuv's thread pool (`preverifyStrictFast`), so the second core does it while
 * the event loop serves other requests. A success is remembered; the mempool's synchronous
 * validation that follows (and the block's execution) then finds it verified. Nothing is decided
 * here: whatever the outcome, validation runs the full check as before.
 */
import type { SignedTransaction } from "../../domain/Transaction.js"
import { preverifyStrictFast } from "../../domain/ed25519Fast.js"
import { ed25519SignerOf } from "../../execution/signatures/ed25519Signer.js"
import { rawTransactionSubject } from "../../execution/signatures/SigningSubject.js"

/** The pending pre-verification, or undefined when the transaction's kind is not pre-verified. */
export const preverifySignature = (transaction: SignedTransaction): Promise<boolean> | undefined => {
  const signer = ed25519SignerOf(transaction)
  return signer === undefined
    ? undefined
    : preverifyStrictFast(signer.signature, signer.publicKey, rawTransactionSubject(transaction.rawTransaction).message)
}
