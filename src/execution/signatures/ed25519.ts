/**
 * Ed25519 (account authenticator 0, transaction authenticator 0, AnySignature 0): the reference's
 * strict verification (canonical S, small-order A and R refused, cofactorless equation) over the
 * signing message (the curve equation native, libsodium's or OpenSSL's: `verifyStrictFast`).
 * Returns undefined when valid, else why not.
 */
import { verifyStrictFast } from "../../domain/ed25519Fast.js"
import type { SigningSubject } from "./SigningSubject.js"

export const verifyEd25519 = (
  publicKey: Uint8Array,
  signature: Uint8Array,
  subject: SigningSubject
): string | undefined => {
  if (publicKey.length !== 32) return `Ed25519 public key must be 32 bytes, got ${publicKey.length}`
  if (signature.length !== 64) return `Ed25519 signature must be 64 bytes, got ${signature.length}`
  return verifyStrictFast(signature, publicKey, subject.message) ? undefined : "Ed25519 signature verification failed"
}
