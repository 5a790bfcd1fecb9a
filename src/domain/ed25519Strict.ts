/**
 * The reference's strict Ed25519 check in pure JavaScript (`aptos-crypto` over ed25519-dalek's
 * `verify_strict`), built from @noble/curves point operations: the definition the native fast
 * path (`ed25519Fast.ts`) is tested against, and its answer for the encodings that path leaves
 * here (a non-canonical y, a key OpenSSL will not load). ~0.9 ms a verification: not for hot paths.
 * - S must be canonical (< L), as `Ed25519Signature::check_s_malleability`;
 * - A and R are decompressed as curve25519-dalek does (non-canonical y accepted, like ZIP-215), and
 *   refused when of small order;
 * - the equation is the cofactorless `[S]B − [k]A = R` (noble's own `verify` is cofactored and would
 *   accept keys with a torsion component that dalek refuses).
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { sha512 } from "@noble/hashes/sha2.js"
import { leScalar } from "./scalarBytes.js"

const Point = ed25519.Point
/** L, the prime order of the base point. */
const ED25519_L = Point.Fn.ORDER

/** The point a 32-byte string decompresses to (as curve25519-dalek), or undefined. */
export const ed25519PointOf = (bytes: Uint8Array) => {
  try {
    return Point.fromBytes(bytes, true)
  } catch {
    return undefined
  }
}

/** A 32-byte encoding of a curve point that is not of small order (`public_key_validate`). */
export const validPublicKey = (pk: Uint8Array): boolean => {
  if (pk.length !== 32) return false
  const p = ed25519PointOf(pk)
  return p !== undefined && !p.isSmallOrder()
}

/** Whether `sig` is a strict Ed25519 signature of `msg` under `pk`; false on any malformed input. */
export const verifyStrict = (sig: Uint8Array, pk: Uint8Array, msg: Uint8Array): boolean => {
  if (sig.length !== 64 || pk.length !== 32) return false
  const s = leScalar(sig.subarray(32))
  if (s >= ED25519_L) return false
  const a = ed25519PointOf(pk)
  const rBytes = sig.subarray(0, 32)
  const r = ed25519PointOf(rBytes)
  if (a === undefined || r === undefined || a.isSmallOrder() || r.isSmallOrder()) return false
  const h = sha512.create().update(rBytes).update(pk).update(msg).digest()
  const k = leScalar(h) % ED25519_L
  return Point.BASE.multiplyUnsafe(s).subtract(a.multiplyUnsafe(k)).equals(r)
}
