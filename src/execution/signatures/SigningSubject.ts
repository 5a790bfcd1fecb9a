/**
 * What an authenticator signs, as the reference's `CryptoHash` types model it: the hasher's type
 * name and the value's BCS. The bytes a key signs are `signing_message(value)` =
 * sha3("APTOS::" + typeName) ‖ BCS(value); WebAuthn challenges are sha3 of those bytes, and an
 * account-abstraction digest is sha3 of the signing message of `AASigningData::V1 {
 * original_signing_message, function_info }` wrapping them (`abstractionDigest`). Keyless ephemeral keys sign a different type wrapping the same value
 * (`TransactionAndProof`), hence a subject rather than plain bytes.
 */
import { BcsWriter } from "../../bcs/index.js"
import type { AccountAddress } from "../../domain/AccountAddress.js"
import { hashPrefix, sha3 } from "../../domain/hash.js"
import { feePayerSigningMessage, multiAgentSigningMessage, signingMessage } from "../../domain/signingMessage.js"
import type { RawTransaction } from "../../domain/Transaction.js"
import type { FunctionInfo, Groth16Proof } from "../../domain/TransactionAuthenticator.js"

export interface SigningSubject {
  /** The hasher's type name (`RawTransaction`, `RawTransactionWithData`, `TransactionAndProof`). */
  readonly typeName: string
  /** prefix(typeName) ‖ BCS(value): the bytes signed. */
  readonly message: Uint8Array
}

const PREFIX_LENGTH = 32

/** The subject of a single-signer transaction: `RawTransaction`. */
export const rawTransactionSubject = (raw: RawTransaction): SigningSubject => ({
  typeName: "RawTransaction",
  message: signingMessage(raw)
})

/** `RawTransactionWithData::MultiAgent { raw_txn, secondary_signer_addresses }`. */
export const multiAgentSubject = (raw: RawTransaction, secondary: ReadonlyArray<AccountAddress>): SigningSubject => ({
  typeName: "RawTransactionWithData",
  message: multiAgentSigningMessage(raw, secondary)
})

/** `RawTransactionWithData::MultiAgentWithFeePayer { raw_txn, secondary_signer_addresses, fee_payer_address }`. */
export const feePayerSubject = (
  raw: RawTransaction,
  secondary: ReadonlyArray<AccountAddress>,
  feePayer: AccountAddress
): SigningSubject => ({
  typeName: "RawTransactionWithData",
  message: feePayerSigningMessage(raw, secondary, feePayer)
})

/**
 * `TransactionAndProof { message, proof: Some(ZKP::Groth16(proof)) }`: what a keyless account's
 * ephemeral key signs (the proof is signed over so that it cannot be swapped).
 */
export const transactionAndProofSubject = (subject: SigningSubject, proof: Groth16Proof): SigningSubject => {
  const body = subject.message.subarray(PREFIX_LENGTH)
  const prefix = hashPrefix("TransactionAndProof")
  const out = new Uint8Array(PREFIX_LENGTH + body.length + 2 + proof.a.length + proof.b.length + proof.c.length)
  out.set(prefix, 0)
  out.set(body, PREFIX_LENGTH)
  let o = PREFIX_LENGTH + body.length
  out[o++] = 1 // Some
  out[o++] = 0 // ZKP::Groth16
  out.set(proof.a, o)
  out.set(proof.b, (o += proof.a.length))
  out.set(proof.c, o + proof.b.length)
  return { typeName: "TransactionAndProof", message: out }
}

/** sha3-256 of the signing message: the WebAuthn challenge. */
export const subjectDigest = (subject: SigningSubject): Uint8Array => sha3(subject.message)

/**
 * The `signing_message_digest` an Abstraction authenticator must carry (the reference's
 * `AASigningData::signing_message_digest`): sha3-256 of prefix("AASigningData") ‖ BCS(V1 {
 * original_signing_message: the subject's signing message, function_info }). The function is part of
 * what is signed, so a signature made for one authentication function is refused for another.
 */
export const abstractionDigest = (subject: SigningSubject, functionInfo: FunctionInfo): Uint8Array => {
  const w = new BcsWriter(subject.message.length + 128)
  w.fixed(hashPrefix("AASigningData"))
  w.uleb128(0) // AASigningData::V1
  w.bytesWithLength(subject.message)
  w.fixed(functionInfo.moduleAddress).string(functionInfo.moduleName).string(functionInfo.functionName)
  return sha3(w.toBytes())
}
