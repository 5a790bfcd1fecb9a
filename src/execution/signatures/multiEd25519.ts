/**
 * MultiEd25519 (account authenticator 1, transaction authenticator 1): k-of-n Ed25519 with the
 * packed key (keys ‖ threshold) and signature (signatures ‖ 4-byte bitmap) layouts; rules in
 * `verifyMultiEd25519` (shared with the `0x1::multi_ed25519` native).
 */
import { splitMultiEd25519Key, verifyMultiEd25519 } from "../../move/vm/natives/ed25519.js"
import type { SigningSubject } from "./SigningSubject.js"

export const verifyMultiEd25519Authenticator = (
  publicKey: Uint8Array,
  signature: Uint8Array,
  subject: SigningSubject
): string | undefined => {
  if (splitMultiEd25519Key(publicKey) === undefined)
    return "MultiEd25519 public key must be 1 to 32 keys of 32 bytes and a threshold between 1 and their number"
  if (signature.length % 64 !== 4 || signature.length < 68 || signature.length > 32 * 64 + 4)
    return "MultiEd25519 signature must be 1 to 32 signatures of 64 bytes and a 4-byte bitmap"
  return verifyMultiEd25519(signature, publicKey, subject.message)
    ? undefined
    : "MultiEd25519 signature verification failed"
}
