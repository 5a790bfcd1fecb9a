import { ed25519 } from "@noble/curves/ed25519.js"
import { sha512 } from "@noble/hashes/sha2.js"
import { bytesOf, chargeBytes } from "./helpers.js"
import type { NativeFunction } from "./NativeContext.js"

/**
 * `0x1::ed25519` and `0x1::multi_ed25519` verification natives, and the strict Ed25519 check that
 * transaction signatures use too. It is the reference's (`aptos-crypto` over ed25519-dalek's
 * `verify_strict`), built from @noble/curves point operations:
 * - S must be canonical (< L), as `Ed25519Signature::check_s_malleability`;
 * - A and R are decompressed as curve25519-dalek does (non-canonical y accepted, like ZIP-215), and
 *   refused when of small order;
 * - the equation is the cofactorless `[S]B − [k]A = R` (noble's own `verify` is cofactored and would
 *   accept keys with a torsion component that dalek refuses).
 */
const Point = ed25519.Point
const L = Point.Fn.ORDER

const pointOf = (bytes: Uint8Array) => {
  try {
    return Point.fromBytes(bytes, true)
  } catch {
    return undefined
  }
}

const leScalar = (b: Uint8Array): bigint => {
  let n = 0n
  for (let i = b.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(b[i]!)
  return n
}

/** A 32-byte encoding of a curve point that is not of small order (`public_key_validate`). */
export const validPublicKey = (pk: Uint8Array): boolean => {
  if (pk.length !== 32) return false
  const p = pointOf(pk)
  return p !== undefined && !p.isSmallOrder()
}

/** Whether `sig` is a strict Ed25519 signature of `msg` under `pk`; false on any malformed input. */
export const verifyStrict = (sig: Uint8Array, pk: Uint8Array, msg: Uint8Array): boolean => {
  if (sig.length !== 64 || pk.length !== 32) return false
  const s = leScalar(sig.subarray(32))
  if (s >= L) return false
  const a = pointOf(pk)
  const rBytes = sig.subarray(0, 32)
  const r = pointOf(rBytes)
  if (a === undefined || r === undefined || a.isSmallOrder() || r.isSmallOrder()) return false
  const h = sha512.create().update(rBytes).update(pk).update(msg).digest()
  const k = leScalar(h) % L
  return Point.BASE.multiplyUnsafe(s).subtract(a.multiplyUnsafe(k)).equals(r)
}

export const ed25519Natives: Record<string, NativeFunction> = {
  public_key_validate_internal: (_c, _t, [pk]) => [validPublicKey(bytesOf(pk))],
  signature_verify_strict_internal: (ctx, _t, [sig, pk, msg]) => {
    const m = bytesOf(msg)
    chargeBytes(ctx, m.length)
    return [verifyStrict(bytesOf(sig), bytesOf(pk), m)]
  }
}

/**
 * Multi-Ed25519 key layout (`MultiEd25519PublicKey`): n × 32-byte keys ‖ threshold byte, with
 * 1 ≤ n ≤ 32 and 1 ≤ threshold ≤ n. Undefined when the bytes break those rules.
 */
export const splitMultiEd25519Key = (pk: Uint8Array): { keys: Uint8Array[]; threshold: number } | undefined => {
  const n = (pk.length - 1) / 32
  if (!Number.isInteger(n) || n < 1 || n > 32) return undefined
  const threshold = pk[pk.length - 1]!
  if (threshold === 0 || threshold > n) return undefined
  const keys: Uint8Array[] = []
  for (let i = 0; i < n; i++) keys.push(pk.subarray(32 * i, 32 * i + 32))
  return { keys, threshold }
}

/**
 * Multi-Ed25519 verification as the reference's `MultiEd25519Signature` (deserialisation, then
 * `verify_arbitrary_msg`): signature = k × 64-byte signatures ‖ 4-byte bitmap (bit i, from the
 * most significant bit of byte 0, means key i signed), 1 ≤ k ≤ 32, popcount = k, last set bit < n,
 * k ≥ threshold, every signature strict under its key, in bitmap order.
 */
export const verifyMultiEd25519 = (sig: Uint8Array, pk: Uint8Array, msg: Uint8Array): boolean => {
  const s = splitMultiEd25519Key(pk)
  if (s === undefined || sig.length % 64 !== 4) return false
  const count = (sig.length - 4) / 64
  if (count < 1 || count > 32) return false
  const bitmap = sig.subarray(sig.length - 4)
  const signers: number[] = []
  for (let i = 0; i < 32; i++) if ((bitmap[i >> 3]! >> (7 - (i & 7))) & 1) signers.push(i)
  if (signers.length !== count || count < s.threshold) return false
  if (signers[count - 1]! >= s.keys.length) return false
  for (let j = 0; j < count; j++) {
    if (!verifyStrict(sig.subarray(64 * j, 64 * j + 64), s.keys[signers[j]!]!, msg)) return false
  }
  return true
}

/** The number of 64-byte signatures a packed Multi-Ed25519 signature carries. */
export const multiEd25519SignatureCount = (sig: Uint8Array): number => Math.floor(sig.length / 64)

export const multiEd25519Natives: Record<string, NativeFunction> = {
  public_key_validate_internal: (_c, _t, [pk]) => {
    const s = splitMultiEd25519Key(bytesOf(pk))
    return [s?.keys.every(validPublicKey) === true]
  },
  public_key_validate_v2_internal: (_c, _t, [pk]) => {
    const s = splitMultiEd25519Key(bytesOf(pk))
    return [s?.keys.every(validPublicKey) === true]
  },
  signature_verify_strict_internal: (ctx, _t, [sig, pk, msg]) => {
    const m = bytesOf(msg)
    chargeBytes(ctx, m.length)
    return [verifyMultiEd25519(bytesOf(sig), bytesOf(pk), m)]
  }
}
