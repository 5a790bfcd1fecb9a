/**
 * Who signs a transaction and with what (`TransactionAuthenticator::sender`,
 * `secondary_signer_addresses`, `secondary_signers`, `fee_payer_*`), with each authenticator's
 * `optional_auth_key`: what the executor puts in `PrologueArgs` (local-chain.md §8.2). Pure; no
 * signature is checked here, so simulation (whose signatures are invalid by design) uses it too.
 * The secondary addresses and authenticators are kept as two lists, as the reference does: their
 * lengths are compared by the prologue (abort 1009), not here.
 */
import type { AccountAddress } from "../../domain/AccountAddress.js"
import type { SignedTransaction } from "../../domain/Transaction.js"
import type { AccountAuthenticator } from "../../domain/TransactionAuthenticator.js"
import { optionalAuthKey } from "./authKey.js"

export interface SignerAuthentication {
  readonly authenticator: AccountAuthenticator
  /** `optional_auth_key()`: undefined for NoAccountAuthenticator and Abstraction. */
  readonly authKey: Uint8Array | undefined
}

export interface AddressedSigner extends SignerAuthentication {
  readonly address: AccountAddress
}

export interface TransactionSigners {
  readonly sender: AddressedSigner
  readonly secondarySignerAddresses: ReadonlyArray<AccountAddress>
  readonly secondarySigners: ReadonlyArray<SignerAuthentication>
  /** Present exactly for the FeePayer authenticator (`needs_fee_payer_auth_check`). */
  readonly feePayer: AddressedSigner | undefined
}

const authentication = (authenticator: AccountAuthenticator): SignerAuthentication => ({
  authenticator,
  authKey: optionalAuthKey(authenticator)
})

/** The sender's account authenticator (transaction authenticators 0 and 1 are Ed25519/MultiEd25519 senders). */
export const senderAuthenticator = (txn: SignedTransaction): AccountAuthenticator => {
  const a = txn.authenticator
  switch (a._tag) {
    case "Ed25519":
    case "MultiEd25519":
      return { _tag: a._tag, publicKey: a.publicKey, signature: a.signature }
    default:
      return a.sender
  }
}

/**
 * By transaction object (a signed transaction is immutable): the signature check and the
 * transaction's metadata both ask when a transaction is checked where it runs (the mempool's
 * in-thread validation, a simulation), and each answer hashes every signer's key into its
 * authentication key. A block's pooled transactions come with admission's check, whose signers
 * the metadata takes (`ExecuteOptions.signatureCheck`): they do not come here.
 */
const known = new WeakMap<SignedTransaction, TransactionSigners>()

export const transactionSigners = (txn: SignedTransaction): TransactionSigners => {
  let signers = known.get(txn)
  if (signers === undefined) known.set(txn, (signers = signersOf(txn)))
  return signers
}

/** `transactionSigners`, found anew and not remembered (for a caller that keeps them itself). */
export const signersOf = (txn: SignedTransaction): TransactionSigners => {
  const a = txn.authenticator
  const sender = { address: txn.rawTransaction.sender, ...authentication(senderAuthenticator(txn)) }
  switch (a._tag) {
    case "MultiAgent":
      return {
        sender,
        secondarySignerAddresses: a.secondarySignerAddresses,
        secondarySigners: a.secondarySigners.map(authentication),
        feePayer: undefined
      }
    case "FeePayer":
      return {
        sender,
        secondarySignerAddresses: a.secondarySignerAddresses,
        secondarySigners: a.secondarySigners.map(authentication),
        feePayer: { address: a.feePayerAddress, ...authentication(a.feePayerSigner) }
      }
    default:
      return { sender, secondarySignerAddresses: [], secondarySigners: [], feePayer: undefined }
  }
}
