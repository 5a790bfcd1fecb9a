import { ed25519 } from "@noble/curves/ed25519.js"
import { bytesOf, chargeBytes } from "./helpers.js"
import type { NativeFunction } from "./NativeContext.js"

/**
 * `0x1::ed25519` and `0x1::multi_ed25519` verification natives over @noble/curves: strict
 * (RFC 8032 canonical encodings, no ZIP-215 leniency) and, as the reference, refusing small-order
 * public keys and signature points.
 */
const pointOf = (bytes: Uint8Array) => {
  try {
    return ed25519.Point.fromBytes(bytes, false)
  } catch {
    return undefined
  }
}

/** A 32-byte encoding of a point that is not of small order. */
export const validPublicKey = (pk: Uint8Array): boolean => {
  if (pk.length !== 32) return false
  const p = pointOf(pk)
  return p !== undefined && !p.isSmallOrder()
}

export const verifyStrict = (sig: Uint8Array, pk: Uint8Array, msg: Uint8Array): boolean => {
  if (sig.length !== 64 || !validPublicKey(pk)) return false
  const r = pointOf(sig.subarray(0, 32))
  if (r === undefined || r.isSmallOrder()) return false
  try {
    return ed25519.verify(sig, msg, pk, { zip215: false })
  } catch {
    return false
  }
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
 * Multi-Ed25519: public key = n × 32-byte keys ‖ threshold byte; signature = k × 64-byte
 * signatures ‖ 4-byte bitmap (bit i from the most significant bit of byte 0 = key i signed).
 */
const splitKeys = (pk: Uint8Array): { keys: Uint8Array[]; threshold: number } | undefined => {
  const n = (pk.length - 1) / 32
  if (!Number.isInteger(n) || n < 1 || n > 32) return undefined
  const threshold = pk[pk.length - 1]!
  if (threshold === 0 || threshold > n) return undefined
  const keys: Uint8Array[] = []
  for (let i = 0; i < n; i++) keys.push(pk.subarray(32 * i, 32 * i + 32))
  return { keys, threshold }
}

export const multiEd25519Natives: Record<string, NativeFunction> = {
  public_key_validate_internal: (_c, _t, [pk]) => {
    const s = splitKeys(bytesOf(pk))
    return [s?.keys.every(validPublicKey) === true]
  },
  public_key_validate_v2_internal: (_c, _t, [pk]) => {
    const s = splitKeys(bytesOf(pk))
    return [s?.keys.every(validPublicKey) === true]
  },
  signature_verify_strict_internal: (ctx, _t, [sig, pk, msg]) => {
    const s = splitKeys(bytesOf(pk))
    const sigBytes = bytesOf(sig)
    const m = bytesOf(msg)
    chargeBytes(ctx, m.length)
    if (s === undefined || sigBytes.length < 4 || (sigBytes.length - 4) % 64 !== 0) return [false]
    const bitmap = sigBytes.subarray(sigBytes.length - 4)
    const count = (sigBytes.length - 4) / 64
    const signers: number[] = []
    for (let i = 0; i < 32; i++) if ((bitmap[i >> 3]! >> (7 - (i & 7))) & 1) signers.push(i)
    if (signers.length !== count || count < s.threshold) return [false]
    for (let j = 0; j < count; j++) {
      const key = s.keys[signers[j]!]
      if (key === undefined || !verifyStrict(sigBytes.subarray(64 * j, 64 * j + 64), key, m)) return [false]
    }
    return [true]
  }
}
