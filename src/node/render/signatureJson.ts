import { BcsWriter } from "../../bcs/index.js"
import { addressToShortString } from "../../domain/AccountAddress.js"
import {
  writeKeylessPublicKey,
  writeKeylessSignature,
  writeWebAuthnSignature
} from "../../domain/CryptoMaterialCodec.js"
import type {
  AbstractionAuthData,
  AccountAuthenticator,
  AnyPublicKey,
  AnySignature,
  TransactionAuthenticator
} from "../../domain/TransactionAuthenticator.js"
import { writeAbstractionAuthData } from "../../domain/TransactionAuthenticatorCodec.js"
import { hexJson, type JsonObject } from "./moveJson.js"

const bcsOf = (write: (w: BcsWriter) => void): Uint8Array => {
  const w = new BcsWriter(128)
  write(w)
  return w.toBytes()
}

/** `{"value", "type"}` of a public key; the value is the key's own bytes (`to_bytes`: BCS for keyless ones). */
const publicKeyJson = (k: AnyPublicKey): JsonObject => {
  switch (k._tag) {
    case "Ed25519":
      return { value: hexJson(k.publicKey), type: "ed25519" }
    case "Secp256k1Ecdsa":
      return { value: hexJson(k.publicKey), type: "secp256k1_ecdsa" }
    case "Secp256r1Ecdsa":
      return { value: hexJson(k.publicKey), type: "secp256r1_ecdsa" }
    case "Keyless":
      return { value: hexJson(bcsOf((w) => writeKeylessPublicKey(w, k.publicKey))), type: "keyless" }
    case "FederatedKeyless":
      return {
        value: hexJson(
          bcsOf((w) => {
            w.fixed(k.jwkAddress)
            writeKeylessPublicKey(w, k.publicKey)
          })
        ),
        type: "federated_keyless"
      }
    case "SlhDsaSha2_128s":
      return { value: hexJson(k.publicKey), type: "slh_dsa_sha2_128s" }
  }
}

/** `{"value", "type"}` of a signature (WebAuthn and keyless signatures as their BCS). */
const anySignatureJson = (s: AnySignature): JsonObject => {
  switch (s._tag) {
    case "Ed25519":
      return { value: hexJson(s.signature), type: "ed25519" }
    case "Secp256k1Ecdsa":
      return { value: hexJson(s.signature), type: "secp256k1_ecdsa" }
    case "WebAuthn":
      return { value: hexJson(bcsOf((w) => writeWebAuthnSignature(w, s.signature))), type: "web_authn" }
    case "Keyless":
      return { value: hexJson(bcsOf((w) => writeKeylessSignature(w, s.signature))), type: "keyless" }
    case "SlhDsaSha2_128s":
      return { value: hexJson(s.signature), type: "slh_dsa_sha2_128s" }
  }
}

/** A packed MultiEd25519 key (32-byte keys ‖ threshold) and signature (64-byte signatures ‖ 4-byte bitmap). */
const multiEd25519Json = (publicKey: Uint8Array, signature: Uint8Array): JsonObject => {
  const keys = Math.floor((publicKey.length - 1) / 32)
  const sigs = Math.floor((signature.length - 4) / 64)
  return {
    public_keys: Array.from({ length: Math.max(0, keys) }, (_, i) => hexJson(publicKey.subarray(i * 32, i * 32 + 32))),
    signatures: Array.from({ length: Math.max(0, sigs) }, (_, i) => hexJson(signature.subarray(i * 64, i * 64 + 64))),
    threshold: publicKey[publicKey.length - 1] ?? 0,
    bitmap: hexJson(signature.subarray(Math.max(0, signature.length - 4))),
    type: "multi_ed25519_signature"
  }
}

/** The indices of the set bits of a MultiKey bitmap, lowest first (bit i is byte i/8, mask 0x80 >> i%8). */
const bitmapIndices = (bitmap: Uint8Array): number[] => {
  const out: number[] = []
  for (let i = 0; i < bitmap.length * 8; i++) if ((bitmap[i >> 3]! & (0x80 >> (i & 7))) !== 0) out.push(i)
  return out
}

const authDataBcs = (d: AbstractionAuthData): Uint8Array => bcsOf((w) => writeAbstractionAuthData(w, d))

/** One signer's signature (`AccountSignature`). */
export const accountSignatureJson = (a: AccountAuthenticator): JsonObject => {
  switch (a._tag) {
    case "Ed25519":
      return { public_key: hexJson(a.publicKey), signature: hexJson(a.signature), type: "ed25519_signature" }
    case "MultiEd25519":
      return multiEd25519Json(a.publicKey, a.signature)
    case "SingleKey":
      return {
        public_key: publicKeyJson(a.publicKey),
        signature: anySignatureJson(a.signature),
        type: "single_key_signature"
      }
    case "MultiKey": {
      const indices = bitmapIndices(a.bitmap)
      return {
        public_keys: a.publicKeys.map(publicKeyJson),
        signatures: a.signatures.map((s, i) => ({ index: indices[i] ?? i, signature: anySignatureJson(s) })),
        signatures_required: a.signaturesRequired,
        type: "multi_key_signature"
      }
    }
    case "NoAccountAuthenticator":
      return { type: "no_account_signature" }
    case "Abstraction":
      return {
        function_info: `${addressToShortString(a.functionInfo.moduleAddress)}::${a.functionInfo.moduleName}::${a.functionInfo.functionName}`,
        auth_data: hexJson(authDataBcs(a.authData)),
        type: "abstract_signature"
      }
  }
}

/**
 * A transaction's signature as the API shows it (`TransactionSignature`): the signer's key(s) and
 * signature(s) in hex, secondary signers and the fee payer where there are. A single-sender
 * signature is its account signature with `type` "single_sender".
 */
export const signatureJson = (a: TransactionAuthenticator): JsonObject => {
  switch (a._tag) {
    case "Ed25519":
      return { public_key: hexJson(a.publicKey), signature: hexJson(a.signature), type: "ed25519_signature" }
    case "MultiEd25519":
      return multiEd25519Json(a.publicKey, a.signature)
    case "MultiAgent":
      return {
        sender: accountSignatureJson(a.sender),
        secondary_signer_addresses: a.secondarySignerAddresses.map(addressToShortString),
        secondary_signers: a.secondarySigners.map(accountSignatureJson),
        type: "multi_agent_signature"
      }
    case "FeePayer":
      return {
        sender: accountSignatureJson(a.sender),
        secondary_signer_addresses: a.secondarySignerAddresses.map(addressToShortString),
        secondary_signers: a.secondarySigners.map(accountSignatureJson),
        fee_payer_address: addressToShortString(a.feePayerAddress),
        fee_payer_signer: accountSignatureJson(a.feePayerSigner),
        type: "fee_payer_signature"
      }
    case "SingleSender":
      return { ...accountSignatureJson(a.sender), type: "single_sender" }
  }
}
