/**
 * Keyless (AnySignature 3 with AnyPublicKey Keyless or FederatedKeyless). Signature verification
 * checks only what the reference's `AnySignature::verify` checks before the VM runs: the ephemeral
 * signature over `TransactionAndProof { message, proof }` under the ephemeral public key (Ed25519,
 * or secp256r1 through a WebAuthn assertion). The rest (JWK lookup, expiry, Groth16 proof, training
 * wheels) is the VM's `keyless_validation`, which needs on-chain state and is not implemented: see
 * `keylessValidationStatus` in `features.ts` for the status a transaction carrying keyless
 * authenticators then fails with.
 */
import type { KeylessSignature } from "../../domain/TransactionAuthenticator.js"
import { verifyEd25519 } from "./ed25519.js"
import { type SigningSubject, transactionAndProofSubject } from "./SigningSubject.js"
import { verifyWebAuthn } from "./webAuthn.js"

export const verifyKeylessEphemeral = (signature: KeylessSignature, subject: SigningSubject): string | undefined => {
  const signed = transactionAndProofSubject(subject, signature.certificate.proof)
  const pk = signature.ephemeralPublicKey
  const sig = signature.ephemeralSignature
  if (sig._tag === "Ed25519" && pk._tag === "Ed25519") return verifyEd25519(pk.publicKey, sig.signature, signed)
  if (sig._tag === "WebAuthn" && pk._tag === "Secp256r1Ecdsa")
    return verifyWebAuthn({ _tag: "Secp256r1Ecdsa", publicKey: pk.publicKey }, sig.signature, signed)
  return "Unsupported ephemeral signature and public key combination"
}
