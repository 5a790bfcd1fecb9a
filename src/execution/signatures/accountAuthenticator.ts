/**
 * One signer's authenticator against what it signs (`AccountAuthenticator::verify`):
 * Ed25519, MultiEd25519, SingleKey, MultiKey verify their signatures; NoAccountAuthenticator never
 * verifies ("No signature to verify", it exists for simulation); Abstraction only has its
 * `signing_message_digest` compared with the `AASigningData` digest of the signing message and the
 * authentication function here; the account's own Move authenticator runs later, before the
 * prologue (`authenticateAbstraction`).
 */

import { equalBytes } from "../../bcs/index.js"
import type { AccountAuthenticator } from "../../domain/TransactionAuthenticator.js"
import { multiEd25519SignatureCount } from "../../move/vm/natives/ed25519.js"
import { verifyAnySignature } from "./anySignature.js"
import { verifyEd25519 } from "./ed25519.js"
import { verifyMultiEd25519Authenticator } from "./multiEd25519.js"
import { verifyMultiKey } from "./multiKey.js"
import { abstractionDigest, type SigningSubject } from "./SigningSubject.js"

export const verifyAccountAuthenticator = (a: AccountAuthenticator, subject: SigningSubject): string | undefined => {
  switch (a._tag) {
    case "Ed25519":
      return verifyEd25519(a.publicKey, a.signature, subject)
    case "MultiEd25519":
      return verifyMultiEd25519Authenticator(a.publicKey, a.signature, subject)
    case "SingleKey":
      return verifyAnySignature(a.publicKey, a.signature, subject)
    case "MultiKey":
      return verifyMultiKey(a.publicKeys, a.signaturesRequired, a.signatures, a.bitmap, subject)
    case "NoAccountAuthenticator":
      return "No signature to verify."
    case "Abstraction":
      return equalBytes(a.authData.signingMessageDigest, abstractionDigest(subject, a.functionInfo))
        ? undefined
        : "The signing message digest provided in Abstraction Authenticator is not expected"
  }
}

/** `AccountAuthenticator::number_of_signatures`: what counts towards `MAX_NUM_OF_SIGS`. */
export const numberOfSignatures = (a: AccountAuthenticator): number => {
  switch (a._tag) {
    case "Ed25519":
    case "SingleKey":
      return 1
    case "MultiEd25519":
      return multiEd25519SignatureCount(a.signature)
    case "MultiKey":
      return a.signatures.length
    case "NoAccountAuthenticator":
    case "Abstraction":
      return 0
  }
}
