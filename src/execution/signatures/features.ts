/**
 * The feature-flag gates the reference applies around signature verification, as pure functions
 * of the authenticator and an `isEnabled(flag)` lookup (the executor reads the on-chain
 * `0x1::features::Features`):
 * - before the signature check (`AptosVM::validate_transaction`): a SingleSender authenticator
 *   needs flag 33, any WebAuthn signature flag 44, any SLH-DSA signature flag 107, else
 *   FEATURE_UNDER_GATING;
 * - after it, for keyless authenticators (`keyless_validation::validate_authenticators`, skipped in
 *   simulation): ZK certificates need flag 46, WebAuthn ephemeral signatures flag 54, federated
 *   keys flag 77, else FEATURE_UNDER_GATING; past the gates the reference checks JWKs and Groth16
 *   proofs against on-chain state, which this node does not implement, so the transaction fails
 *   with INVALID_SIGNATURE (the reference's status for every such failure).
 */
import type {
  AccountAuthenticator,
  AnySignature,
  TransactionAuthenticator
} from "../../domain/TransactionAuthenticator.js"
import type { KeylessAuthenticator } from "./keylessAuthenticators.js"

export const SignatureFeatureFlag = {
  SINGLE_SENDER_AUTHENTICATOR: 33,
  WEBAUTHN_SIGNATURE: 44,
  KEYLESS_ACCOUNTS: 46,
  KEYLESS_BUT_ZKLESS_ACCOUNTS: 47,
  KEYLESS_ACCOUNTS_WITH_PASSKEYS: 54,
  FEDERATED_KEYLESS: 77,
  SLH_DSA_SHA2_128S_SIGNATURE: 107
} as const

export interface GateFailure {
  readonly status: "FEATURE_UNDER_GATING" | "INVALID_SIGNATURE"
  readonly reason: string
}

const accountSignatures = (a: AccountAuthenticator): ReadonlyArray<AnySignature> => {
  switch (a._tag) {
    case "SingleKey":
      return [a.signature]
    case "MultiKey":
      return a.signatures
    default:
      return []
  }
}

/** Every account authenticator of a transaction: sender, secondaries, fee payer (`all_signers`). */
export const allSigners = (a: TransactionAuthenticator): ReadonlyArray<AccountAuthenticator> => {
  switch (a._tag) {
    case "Ed25519":
    case "MultiEd25519":
      return [{ _tag: a._tag, publicKey: a.publicKey, signature: a.signature }]
    case "SingleSender":
      return [a.sender]
    case "MultiAgent":
      return [a.sender, ...a.secondarySigners]
    case "FeePayer":
      return [a.sender, ...a.secondarySigners, a.feePayerSigner]
  }
}

/** The gates checked before the signature: undefined when the transaction passes them. */
export const signatureFeatureGate = (
  a: TransactionAuthenticator,
  isEnabled: (flag: number) => boolean
): GateFailure | undefined => {
  if (a._tag === "SingleSender" && !isEnabled(SignatureFeatureFlag.SINGLE_SENDER_AUTHENTICATOR))
    return { status: "FEATURE_UNDER_GATING", reason: "SingleSender authenticators are not enabled" }
  const sigs = allSigners(a).flatMap(accountSignatures)
  if (!isEnabled(SignatureFeatureFlag.WEBAUTHN_SIGNATURE) && sigs.some((s) => s._tag === "WebAuthn"))
    return { status: "FEATURE_UNDER_GATING", reason: "WebAuthn signatures are not enabled" }
  if (!isEnabled(SignatureFeatureFlag.SLH_DSA_SHA2_128S_SIGNATURE) && sigs.some((s) => s._tag === "SlhDsaSha2_128s"))
    return { status: "FEATURE_UNDER_GATING", reason: "SLH-DSA-SHA2-128s signatures are not enabled" }
  return undefined
}

/**
 * What the keyless validation stage answers for a transaction with these keyless authenticators
 * (none: undefined; simulation skips the stage, so callers pass only non-simulated transactions).
 */
export const keylessValidationStatus = (
  keyless: ReadonlyArray<KeylessAuthenticator>,
  isEnabled: (flag: number) => boolean
): GateFailure | undefined => {
  if (keyless.length === 0) return undefined
  for (const k of keyless) {
    if (!isEnabled(SignatureFeatureFlag.KEYLESS_ACCOUNTS))
      return { status: "FEATURE_UNDER_GATING", reason: "keyless accounts are not enabled" }
    if (
      k.signature.ephemeralSignature._tag === "WebAuthn" &&
      !isEnabled(SignatureFeatureFlag.KEYLESS_ACCOUNTS_WITH_PASSKEYS)
    )
      return { status: "FEATURE_UNDER_GATING", reason: "keyless accounts with passkeys are not enabled" }
    if (k.publicKey._tag === "FederatedKeyless" && !isEnabled(SignatureFeatureFlag.FEDERATED_KEYLESS))
      return { status: "FEATURE_UNDER_GATING", reason: "federated keyless accounts are not enabled" }
  }
  return {
    status: "INVALID_SIGNATURE",
    reason: "keyless validation (JWKs, Groth16 proof) is not supported by this node"
  }
}
