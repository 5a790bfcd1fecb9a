/**
 * SingleKey authenticators (account authenticator 2): an `AnySignature` checked against an
 * `AnyPublicKey`, pairing as the reference's `AnySignature::verify` does (Ed25519/Ed25519,
 * Secp256k1/Secp256k1, SLH-DSA/SLH-DSA, WebAuthn with any key (only secp256r1 then verifies),
 * Keyless with Keyless or FederatedKeyless); any other pairing fails.
 */
import type { AnyPublicKey, AnySignature } from "../../domain/TransactionAuthenticator.js"
import { verifyEd25519 } from "./ed25519.js"
import { verifyKeylessEphemeral } from "./keyless.js"
import { verifySecp256k1Ecdsa } from "./secp256k1Ecdsa.js"
import type { SigningSubject } from "./SigningSubject.js"
import { verifySlhDsaSha2128s } from "./slhDsa.js"
import { verifyWebAuthn } from "./webAuthn.js"

export const verifyAnySignature = (
  publicKey: AnyPublicKey,
  signature: AnySignature,
  subject: SigningSubject
): string | undefined => {
  switch (signature._tag) {
    case "Ed25519":
      return publicKey._tag === "Ed25519"
        ? verifyEd25519(publicKey.publicKey, signature.signature, subject)
        : "Invalid key, signature pairing"
    case "Secp256k1Ecdsa":
      return publicKey._tag === "Secp256k1Ecdsa"
        ? verifySecp256k1Ecdsa(publicKey.publicKey, signature.signature, subject)
        : "Invalid key, signature pairing"
    case "SlhDsaSha2_128s":
      return publicKey._tag === "SlhDsaSha2_128s"
        ? verifySlhDsaSha2128s(publicKey.publicKey, signature.signature, subject.message)
        : "Invalid key, signature pairing"
    case "WebAuthn":
      return verifyWebAuthn(publicKey, signature.signature, subject)
    case "Keyless":
      return publicKey._tag === "Keyless" || publicKey._tag === "FederatedKeyless"
        ? verifyKeylessEphemeral(signature.signature, subject)
        : "Invalid key, signature pairing"
  }
}
