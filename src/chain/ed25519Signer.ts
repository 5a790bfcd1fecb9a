/**
 * An Ed25519 signer over node:crypto (OpenSSL) for the keys the local chain holds (the root key the
 * faucet signs with, the pre-funded accounts'). Ed25519 signatures are deterministic (RFC 8032), so
 * the bytes are those `@noble/curves` gives; OpenSSL needs no precomputed tables, which cost noble
 * ~100 ms on the first key of a process (a start's budget), and signs several times faster.
 */
import { createPrivateKey, createPublicKey, type KeyObject, sign } from "node:crypto"

/** DER PrivateKeyInfo prefix of an Ed25519 key (RFC 8410): the 32-byte seed follows. */
const PKCS8_PREFIX = Uint8Array.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20
])
/** DER SubjectPublicKeyInfo of an Ed25519 key is 12 bytes of prefix, then the 32 key bytes. */
const SPKI_PREFIX_LENGTH = 12

export interface Ed25519Signer {
  readonly publicKey: Uint8Array
  readonly sign: (message: Uint8Array) => Uint8Array
}

const keyObjectOf = (privateKey: Uint8Array): KeyObject => {
  if (privateKey.length !== 32) throw new Error(`an Ed25519 private key is 32 bytes, not ${privateKey.length}`)
  const der = new Uint8Array(PKCS8_PREFIX.length + 32)
  der.set(PKCS8_PREFIX)
  der.set(privateKey, PKCS8_PREFIX.length)
  return createPrivateKey({ key: Buffer.from(der), format: "der", type: "pkcs8" })
}

const publicKeyOf = (key: KeyObject): Uint8Array =>
  new Uint8Array(createPublicKey(key).export({ format: "der", type: "spki" }).subarray(SPKI_PREFIX_LENGTH))

/** The public key of a 32-byte Ed25519 private key (seed). */
export const ed25519PublicKey = (privateKey: Uint8Array): Uint8Array => publicKeyOf(keyObjectOf(privateKey))

export const ed25519Signer = (privateKey: Uint8Array): Ed25519Signer => {
  const key = keyObjectOf(privateKey)
  return {
    publicKey: publicKeyOf(key),
    sign: (message) => new Uint8Array(sign(null, message, key))
  }
}
