/**
 * ECDSA verification by OpenSSL (`node:crypto`) for the two curves transactions sign with:
 * secp256k1 (SingleKey Secp256k1, over sha3-256 of the signing message) and P-256 (WebAuthn
 * assertions, over SHA-256). @noble/curves' pure-JS verification took ~1.2 ms (secp256k1) and
 * ~2 ms (P-256) a signature here, OpenSSL's ~0.3 ms and well under 0.1 ms (docs/benchmarks.md,
 * "Session 43"): a flood of such signatures, valid or not, cost a core per ~500–800 a second.
 *
 * Only the equation is OpenSSL's: the callers keep their own checks of the encodings the reference
 * refuses (lengths, the uncompressed key form, 0 < r, s < n, low S), which OpenSSL does not make
 * (it accepts high S). Undefined when OpenSSL will not load the key (a point not on the curve):
 * the caller's pure-JS path decides, so the answer is always the one the tests check it against.
 */
import { verify } from "node:crypto"
import { toHex } from "../bcs/index.js"
import { type PublicKeyCache, publicKeyCache } from "./publicKeyCache.js"

/** The curves, with the DER SubjectPublicKeyInfo prefix a 65-byte uncompressed point follows. */
const SPKI_PREFIX = {
  secp256k1: Buffer.from("3056301006072a8648ce3d020106052b8104000a034200", "hex"),
  p256: Buffer.from("3059301306072a8648ce3d020106082a8648ce3d030107034200", "hex")
} as const

export type EcdsaCurve = keyof typeof SPKI_PREFIX

/** Loaded keys, per curve (1,024 in all). */
const keysOf: Record<EcdsaCurve, PublicKeyCache> = {
  secp256k1: publicKeyCache(SPKI_PREFIX.secp256k1, 512),
  p256: publicKeyCache(SPKI_PREFIX.p256, 512)
}

/**
 * Whether `sig` (r ‖ s, 64 bytes) verifies `message` hashed with `hash` under the 65-byte
 * uncompressed `pk` on `curve`; undefined when OpenSSL does not load the key. No range or low-S
 * checks: the caller's.
 */
export const ecdsaVerifyNative = (
  curve: EcdsaCurve,
  hash: "sha256" | "sha3-256",
  pk: Uint8Array,
  sig: Uint8Array,
  message: Uint8Array
): boolean | undefined => {
  if (pk.length !== 65 || pk[0] !== 4 || sig.length !== 64) return false
  const key = keysOf[curve](pk, toHex(pk))
  if (key === null) return undefined
  try {
    return verify(hash, message, { key, dsaEncoding: "ieee-p1363" }, sig)
  } catch {
    return undefined
  }
}
