/**
 * The signature part of a user transaction, as the reference models it
 * (`types/src/transaction/authenticator.rs`). Keys and signatures are kept as the raw bytes the
 * wire carries; verifying them is the VM's job, not the codec's.
 */
import type { AccountAddress } from "./AccountAddress.js"

/** Keyless public key: the OIDC issuer and the identity commitment. */
export interface KeylessPublicKey {
  readonly issVal: string
  readonly idc: Uint8Array
}

/** BCS enum: 0 Ed25519, 1 Secp256k1Ecdsa, 2 Secp256r1Ecdsa, 3 Keyless, 4 FederatedKeyless, 5 SlhDsaSha2_128s. */
export type AnyPublicKey =
  | { readonly _tag: "Ed25519"; readonly publicKey: Uint8Array }
  | { readonly _tag: "Secp256k1Ecdsa"; readonly publicKey: Uint8Array }
  | { readonly _tag: "Secp256r1Ecdsa"; readonly publicKey: Uint8Array }
  | { readonly _tag: "Keyless"; readonly publicKey: KeylessPublicKey }
  | { readonly _tag: "FederatedKeyless"; readonly jwkAddress: AccountAddress; readonly publicKey: KeylessPublicKey }
  | { readonly _tag: "SlhDsaSha2_128s"; readonly publicKey: Uint8Array }

/** WebAuthn `PartialAuthenticatorAssertionResponse` (its signature enum has one variant, secp256r1). */
export interface WebAuthnSignature {
  readonly signature: Uint8Array
  readonly authenticatorData: Uint8Array
  readonly clientDataJson: Uint8Array
}

/** BCS enum: 0 Ed25519, 1 WebAuthn. */
export type EphemeralSignature =
  | { readonly _tag: "Ed25519"; readonly signature: Uint8Array }
  | { readonly _tag: "WebAuthn"; readonly signature: WebAuthnSignature }

/** BCS enum: 0 Ed25519, 1 Secp256r1Ecdsa. */
export type EphemeralPublicKey =
  | { readonly _tag: "Ed25519"; readonly publicKey: Uint8Array }
  | { readonly _tag: "Secp256r1Ecdsa"; readonly publicKey: Uint8Array }

/** Groth16 proof points as compressed bytes: a (G1, 32), b (G2, 64), c (G1, 32). */
export interface Groth16Proof {
  readonly a: Uint8Array
  readonly b: Uint8Array
  readonly c: Uint8Array
}

/** `EphemeralCertificate::ZeroKnowledgeSig` (variant 0; OpenIdSig, variant 1, is rejected). */
export interface ZeroKnowledgeSig {
  readonly _tag: "ZeroKnowledgeSig"
  readonly proof: Groth16Proof
  readonly expHorizonSecs: bigint
  readonly extraField: string | undefined
  readonly overrideAudVal: string | undefined
  readonly trainingWheelsSignature: EphemeralSignature | undefined
}

export interface KeylessSignature {
  readonly certificate: ZeroKnowledgeSig
  readonly jwtHeaderJson: string
  readonly expDateSecs: bigint
  readonly ephemeralPublicKey: EphemeralPublicKey
  readonly ephemeralSignature: EphemeralSignature
}

/** BCS enum: 0 Ed25519, 1 Secp256k1Ecdsa, 2 WebAuthn, 3 Keyless, 4 SlhDsaSha2_128s. */
export type AnySignature =
  | { readonly _tag: "Ed25519"; readonly signature: Uint8Array }
  | { readonly _tag: "Secp256k1Ecdsa"; readonly signature: Uint8Array }
  | { readonly _tag: "WebAuthn"; readonly signature: WebAuthnSignature }
  | { readonly _tag: "Keyless"; readonly signature: KeylessSignature }
  | { readonly _tag: "SlhDsaSha2_128s"; readonly signature: Uint8Array }

/** Account abstraction's authentication data: 0 V1, 1 DerivableV1. */
export type AbstractionAuthData =
  | { readonly _tag: "V1"; readonly signingMessageDigest: Uint8Array; readonly authenticator: Uint8Array }
  | {
      readonly _tag: "DerivableV1"
      readonly signingMessageDigest: Uint8Array
      readonly abstractSignature: Uint8Array
      readonly abstractPublicKey: Uint8Array
    }

export interface FunctionInfo {
  readonly moduleAddress: AccountAddress
  readonly moduleName: string
  readonly functionName: string
}

/**
 * One signer's authenticator. BCS enum: 0 Ed25519, 1 MultiEd25519, 2 SingleKey, 3 MultiKey,
 * 4 NoAccountAuthenticator, 5 Abstraction. MultiEd25519 keys/signatures stay in their packed form
 * (keys ‖ threshold byte; signatures ‖ 4-byte bitmap).
 */
export type AccountAuthenticator =
  | { readonly _tag: "Ed25519"; readonly publicKey: Uint8Array; readonly signature: Uint8Array }
  | { readonly _tag: "MultiEd25519"; readonly publicKey: Uint8Array; readonly signature: Uint8Array }
  | { readonly _tag: "SingleKey"; readonly publicKey: AnyPublicKey; readonly signature: AnySignature }
  | {
      readonly _tag: "MultiKey"
      readonly publicKeys: ReadonlyArray<AnyPublicKey>
      readonly signaturesRequired: number
      readonly signatures: ReadonlyArray<AnySignature>
      readonly bitmap: Uint8Array
    }
  | { readonly _tag: "NoAccountAuthenticator" }
  | { readonly _tag: "Abstraction"; readonly functionInfo: FunctionInfo; readonly authData: AbstractionAuthData }

/** BCS enum: 0 Ed25519, 1 MultiEd25519, 2 MultiAgent, 3 FeePayer, 4 SingleSender. */
export type TransactionAuthenticator =
  | { readonly _tag: "Ed25519"; readonly publicKey: Uint8Array; readonly signature: Uint8Array }
  | { readonly _tag: "MultiEd25519"; readonly publicKey: Uint8Array; readonly signature: Uint8Array }
  | {
      readonly _tag: "MultiAgent"
      readonly sender: AccountAuthenticator
      readonly secondarySignerAddresses: ReadonlyArray<AccountAddress>
      readonly secondarySigners: ReadonlyArray<AccountAuthenticator>
    }
  | {
      readonly _tag: "FeePayer"
      readonly sender: AccountAuthenticator
      readonly secondarySignerAddresses: ReadonlyArray<AccountAddress>
      readonly secondarySigners: ReadonlyArray<AccountAuthenticator>
      readonly feePayerAddress: AccountAddress
      readonly feePayerSigner: AccountAuthenticator
    }
  | { readonly _tag: "SingleSender"; readonly sender: AccountAuthenticator }
