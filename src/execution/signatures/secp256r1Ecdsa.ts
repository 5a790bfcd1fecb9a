/**
 * Secp256r1 (P-256) ECDSA as the reference's `secp256r1_ecdsa` (RustCrypto p256): the signed bytes
 * are hashed with SHA-256, the key is 65-byte uncompressed SEC1, the signature r ‖ s with
 * 0 < r, s < n and s strictly below (n − 1) / 2 (`ORDER_HALF`; s equal to it is refused too, one
 * value stricter than @noble/curves' own low-S rule, hence the explicit check). Used only inside
 * WebAuthn assertions: AnySignature has no bare secp256r1 variant. Those checks are ours; the
 * equation is OpenSSL's (`domain/ecdsaNative.ts`), or @noble/curves' where OpenSSL will not load
 * the key.
 */
import { p256 } from "@noble/curves/nist.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { ecdsaVerifyNative } from "../../domain/ecdsaNative.js"
import { beScalar } from "../../domain/scalarBytes.js"

const N = p256.Point.Fn.ORDER
const ORDER_HALF = (N - 1n) / 2n

/** The pure-JS check: the definition the native path answers as. */
export const verifySecp256r1Js = (pk: Uint8Array, sig: Uint8Array, message: Uint8Array): boolean => {
  if (pk.length !== 65 || pk[0] !== 4 || sig.length !== 64) return false
  if (beScalar(sig.subarray(32)) >= ORDER_HALF) return false
  try {
    return p256.verify(sig, sha256(message), pk, { prehash: false, lowS: true, format: "compact" })
  } catch {
    return false
  }
}

/** Whether `sig` is a canonical (low-S) P-256 signature of `message` (SHA-256 hashed) under `pk`. */
export const verifySecp256r1 = (pk: Uint8Array, sig: Uint8Array, message: Uint8Array): boolean => {
  if (pk.length !== 65 || pk[0] !== 4 || sig.length !== 64) return false
  const r = beScalar(sig.subarray(0, 32))
  const s = beScalar(sig.subarray(32))
  if (r === 0n || r >= N || s === 0n || s >= ORDER_HALF) return false
  return ecdsaVerifyNative("p256", "sha256", pk, sig, message) ?? verifySecp256r1Js(pk, sig, message)
}
