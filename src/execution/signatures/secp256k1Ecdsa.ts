/**
 * Secp256k1 ECDSA (AnySignature 1 with AnyPublicKey 1), as the reference's `secp256k1_ecdsa`
 * (libsecp256k1): the message is sha3-256 of the signing message, the key is the 65-byte
 * uncompressed SEC1 form, the signature r ‖ s with 0 < r, s < n and s in the low half (high-S is
 * refused as malleable). Those checks are ours; the equation is OpenSSL's (`domain/ecdsaNative.ts`),
 * or @noble/curves' where OpenSSL will not load the key.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { ecdsaVerifyNative } from "../../domain/ecdsaNative.js"
import { sha3 } from "../../domain/hash.js"
import { beScalar } from "../../domain/scalarBytes.js"
import type { SigningSubject } from "./SigningSubject.js"

const N = secp256k1.Point.Fn.ORDER

/** 0 < r < n and 0 < s ≤ n / 2 (libsecp256k1's normalized, low S). */
const canonical = (sig: Uint8Array): boolean => {
  const r = beScalar(sig.subarray(0, 32))
  const s = beScalar(sig.subarray(32))
  return r > 0n && r < N && s > 0n && s <= N >> 1n
}

/** The pure-JS check over the 32-byte `digest`: the definition the native path answers as. */
export const verifySecp256k1Digest = (pk: Uint8Array, sig: Uint8Array, digest: Uint8Array): boolean => {
  if (pk.length !== 65 || pk[0] !== 4 || sig.length !== 64 || digest.length !== 32) return false
  try {
    return secp256k1.verify(sig, digest, pk, { prehash: false, lowS: true, format: "compact" })
  } catch {
    return false
  }
}

/** Whether `sig` (r ‖ s, low-S) verifies sha3-256(`message`) under the 65-byte `pk`. */
export const verifySecp256k1 = (pk: Uint8Array, sig: Uint8Array, message: Uint8Array): boolean => {
  if (pk.length !== 65 || pk[0] !== 4 || sig.length !== 64 || !canonical(sig)) return false
  return ecdsaVerifyNative("secp256k1", "sha3-256", pk, sig, message) ?? verifySecp256k1Digest(pk, sig, sha3(message))
}

export const verifySecp256k1Ecdsa = (
  publicKey: Uint8Array,
  signature: Uint8Array,
  subject: SigningSubject
): string | undefined => {
  if (publicKey.length !== 65 || publicKey[0] !== 4)
    return "secp256k1 public key must be 65 bytes in uncompressed SEC1 form (0x04 ‖ x ‖ y)"
  if (signature.length !== 64) return `secp256k1 signature must be 64 bytes, got ${signature.length}`
  return verifySecp256k1(publicKey, signature, subject.message)
    ? undefined
    : "secp256k1 ECDSA signature verification failed"
}
