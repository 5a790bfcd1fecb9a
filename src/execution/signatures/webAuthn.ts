/**
 * WebAuthn assertions (AnySignature 2, and keyless ephemeral signatures), as the reference's
 * `PartialAuthenticatorAssertionResponse::verify`:
 * 1. signature + authenticator data + client data JSON ≤ 1024 bytes (`MAX_WEBAUTHN_SIGNATURE_BYTES`);
 * 2. the client data JSON parses as `CollectedClientData` (passkey-types): an object with `type`
 *    one of "webauthn.create", "webauthn.get", "payment.get", string `challenge` and `origin`,
 *    `crossOrigin` absent, null or a boolean, other keys free;
 * 3. the challenge, base64url (or base64) decoded as passkey-types does, equals
 *    sha3-256(signing message);
 * 4. the secp256r1 signature (low-S) verifies over authenticatorData ‖ sha256(clientDataJSON).
 * Only secp256r1 public keys pair with WebAuthn signatures.
 */
import { sha256 } from "@noble/hashes/sha2.js"
import { equalBytes } from "../../bcs/index.js"
import type { AnyPublicKey, WebAuthnSignature } from "../../domain/TransactionAuthenticator.js"
import { type SigningSubject, subjectDigest } from "./SigningSubject.js"
import { verifySecp256r1 } from "./secp256r1Ecdsa.js"

export const MAX_WEBAUTHN_SIGNATURE_BYTES = 1024

const CLIENT_DATA_TYPES = new Set(["webauthn.create", "webauthn.get", "payment.get"])
const utf8 = new TextDecoder("utf-8", { fatal: true })

const URL_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
const STD_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
const table = (alphabet: string): Int8Array => {
  const t = new Int8Array(128).fill(-1)
  for (let i = 0; i < 64; i++) t[alphabet.charCodeAt(i)] = i
  return t
}
const URL_TABLE = table(URL_ALPHABET)
const STD_TABLE = table(STD_ALPHABET)

/**
 * Unpadded base64 decoding over one alphabet (data-encoding's rules): a length of 1 mod 4 is
 * invalid; the unused low bits of the last symbol must be zero unless `lenientTrailingBits`.
 */
const decodeUnpadded = (s: string, t: Int8Array, lenientTrailingBits: boolean): Uint8Array | undefined => {
  if (s.length % 4 === 1) return undefined
  const out = new Uint8Array(Math.floor((s.length * 6) / 8))
  let acc = 0
  let bits = 0
  let o = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    const v = c < 128 ? t[c]! : -1
    if (v < 0) return undefined
    acc = ((acc << 6) | v) & 0xffff
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out[o++] = (acc >> bits) & 0xff
    }
  }
  if (!lenientTrailingBits && (acc & ((1 << bits) - 1)) !== 0) return undefined
  return out
}

/** passkey-types `Bytes::try_from(&str)`: base64url (trailing bits ignored), else base64; '=' padding stripped. */
export const decodeChallenge = (s: string): Uint8Array | undefined => {
  let end = s.length
  while (end > 0 && s.charCodeAt(end - 1) === 61) end--
  const trimmed = s.slice(0, end)
  return decodeUnpadded(trimmed, URL_TABLE, true) ?? decodeUnpadded(trimmed, STD_TABLE, false)
}

/** The challenge bytes of a client data JSON, or why it is not a `CollectedClientData`. */
const challengeOf = (clientDataJson: Uint8Array): Uint8Array | string => {
  let data: unknown
  try {
    data = JSON.parse(utf8.decode(clientDataJson))
  } catch {
    return "WebAuthn client data is not JSON"
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) return "WebAuthn client data is not an object"
  const o = data as Record<string, unknown>
  if (typeof o.type !== "string" || !CLIENT_DATA_TYPES.has(o.type)) return "WebAuthn client data has no valid type"
  if (typeof o.challenge !== "string") return "WebAuthn client data has no challenge"
  if (typeof o.origin !== "string") return "WebAuthn client data has no origin"
  const cross = o.crossOrigin
  if (cross !== undefined && cross !== null && typeof cross !== "boolean")
    return "WebAuthn client data crossOrigin is not a boolean"
  return decodeChallenge(o.challenge) ?? "WebAuthn challenge is not base64"
}

export const verifyWebAuthn = (
  publicKey: AnyPublicKey,
  assertion: WebAuthnSignature,
  subject: SigningSubject
): string | undefined => {
  const { signature, authenticatorData, clientDataJson } = assertion
  const size = signature.length + authenticatorData.length + clientDataJson.length
  if (size > MAX_WEBAUTHN_SIGNATURE_BYTES)
    return `WebAuthn assertion is ${size} bytes, more than ${MAX_WEBAUTHN_SIGNATURE_BYTES}`
  const challenge = challengeOf(clientDataJson)
  if (typeof challenge === "string") return challenge
  if (!equalBytes(challenge, subjectDigest(subject))) return "WebAuthn challenge is not sha3-256 of the signing message"
  if (publicKey._tag !== "Secp256r1Ecdsa") return "WebAuthn signatures pair only with secp256r1 public keys"
  const verificationData = new Uint8Array(authenticatorData.length + 32)
  verificationData.set(authenticatorData, 0)
  verificationData.set(sha256(clientDataJson), authenticatorData.length)
  return verifySecp256r1(publicKey.publicKey, signature, verificationData)
    ? undefined
    : "WebAuthn secp256r1 signature verification failed"
}
