/**
 * The single-key Ed25519 transactions — authenticator Ed25519, or SingleSender with an Ed25519
 * SingleKey — almost every transaction a wallet or the SDK signs. Their signature check is one
 * strict Ed25519 verification over the raw transaction's signing message, which is what the
 * mempool verifies ahead of validation (`preverifySignature`, the admission worker) and then
 * carries as the transaction's check (`ed25519VerifiedCheck`).
 */
import type { SignedTransaction } from "../../domain/Transaction.js"

/** The key and signature of a single-key Ed25519 transaction; undefined for every other kind. */
export const ed25519SignerOf = (
  transaction: SignedTransaction
): { readonly publicKey: Uint8Array; readonly signature: Uint8Array } | undefined => {
  const a = transaction.authenticator
  if (a._tag === "Ed25519") return a
  if (
    a._tag === "SingleSender" &&
    a.sender._tag === "SingleKey" &&
    a.sender.publicKey._tag === "Ed25519" &&
    a.sender.signature._tag === "Ed25519"
  )
    return { publicKey: a.sender.publicKey.publicKey, signature: a.sender.signature.signature }
  return undefined
}
