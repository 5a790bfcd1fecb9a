/**
 * Authentication keys (`AuthenticationKey::from_preimage`): sha3-256(key material ‖ scheme byte),
 * and `optional_auth_key()` per account authenticator (local-chain.md §8.2), what the prologue
 * compares with the account's stored key:
 * Ed25519 → sha3(pk ‖ 0); MultiEd25519 → sha3(keys ‖ threshold ‖ 1); SingleKey →
 * sha3(BCS(AnyPublicKey) ‖ 2); MultiKey → sha3(BCS(MultiKey { public_keys, signatures_required }) ‖ 3);
 * NoAccountAuthenticator and Abstraction → none.
 */
import { BcsWriter } from "../../bcs/index.js"
import { writeAnyPublicKey } from "../../domain/CryptoMaterialCodec.js"
import { sha3 } from "../../domain/hash.js"
import type { AccountAuthenticator, AnyPublicKey } from "../../domain/TransactionAuthenticator.js"

/** `Scheme` bytes of the reference's `AuthenticationKey` preimages. */
export const AuthKeyScheme = {
  Ed25519: 0,
  MultiEd25519: 1,
  SingleKey: 2,
  MultiKey: 3,
  Abstraction: 4,
  DeriveDomainAbstraction: 5,
  DeriveAuid: 251,
  DeriveObjectAddressFromObject: 252,
  DeriveObjectAddressFromGuid: 253,
  DeriveObjectAddressFromSeed: 254,
  DeriveResourceAccountAddress: 255
} as const

/** sha3-256(material ‖ scheme). */
export const authenticationKey = (material: Uint8Array, scheme: number): Uint8Array => {
  const preimage = new Uint8Array(material.length + 1)
  preimage.set(material, 0)
  preimage[material.length] = scheme
  return sha3(preimage)
}

/** BCS of an `AnyPublicKey` (the SingleKey preimage). */
export const anyPublicKeyBytes = (k: AnyPublicKey): Uint8Array => {
  const w = new BcsWriter(128)
  writeAnyPublicKey(w, k)
  return w.toBytes()
}

/** BCS of `MultiKey { public_keys, signatures_required }` (the MultiKey preimage). */
export const multiKeyBytes = (keys: ReadonlyArray<AnyPublicKey>, signaturesRequired: number): Uint8Array => {
  const w = new BcsWriter(128)
  w.uleb128(keys.length)
  for (const k of keys) writeAnyPublicKey(w, k)
  w.u8(signaturesRequired)
  return w.toBytes()
}

/** `authentication_proof().optional_auth_key()`: the key the authenticator proves, if it proves one. */
export const optionalAuthKey = (a: AccountAuthenticator): Uint8Array | undefined => {
  switch (a._tag) {
    case "Ed25519":
      return authenticationKey(a.publicKey, AuthKeyScheme.Ed25519)
    case "MultiEd25519":
      return authenticationKey(a.publicKey, AuthKeyScheme.MultiEd25519)
    case "SingleKey":
      return authenticationKey(anyPublicKeyBytes(a.publicKey), AuthKeyScheme.SingleKey)
    case "MultiKey":
      return authenticationKey(multiKeyBytes(a.publicKeys, a.signaturesRequired), AuthKeyScheme.MultiKey)
    case "NoAccountAuthenticator":
    case "Abstraction":
      return undefined
  }
}
