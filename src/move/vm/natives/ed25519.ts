import { canonicalSignature, verifyStrictFastUnremembered } from "../../../domain/ed25519Fast.js"
import { ed25519PointOf, validPublicKey } from "../../../domain/ed25519Strict.js"
import { bytesOf, chargeParam } from "./helpers.js"
import type { NativeFunction } from "./NativeContext.js"

/**
 * `0x1::ed25519` and `0x1::multi_ed25519` verification natives, and Multi-Ed25519 verification
 * (which transaction authenticators use too). Each signature is checked as the reference's strict
 * Ed25519 (`domain/ed25519Fast.ts`: our checks, a native curve equation; the same answers as the
 * pure-JS definition in `domain/ed25519Strict.ts`, ~20 times as fast).
 */
const G = "aptos_framework.signature."

/** A 32-byte string curve25519-dalek decompresses (`Ed25519PublicKey::try_from`: on the curve only). */
const decompresses = (pk: Uint8Array): boolean => pk.length === 32 && ed25519PointOf(pk) !== undefined

/**
 * Gas as the reference's natives charge it (`aptos_framework.signature.*`), stage by stage: a
 * stage that fails answers false without paying for the later ones.
 */
export const ed25519Natives: Record<string, NativeFunction> = {
  public_key_validate_internal: (ctx, _t, [pk]) => {
    chargeParam(ctx, G + "base")
    chargeParam(ctx, G + "per_pubkey_deserialize")
    const bytes = bytesOf(pk)
    // Wrong lengths answer false (feature 14, on in every current network) rather than abort.
    if (!decompresses(bytes)) return [false]
    chargeParam(ctx, G + "per_pubkey_small_order_check")
    return [validPublicKey(bytes)]
  },
  signature_verify_strict_internal: (ctx, _t, [sig, pk, msg]) => {
    chargeParam(ctx, G + "base")
    chargeParam(ctx, G + "per_pubkey_deserialize")
    const key = bytesOf(pk)
    if (!decompresses(key)) return [false]
    chargeParam(ctx, G + "per_sig_deserialize")
    const s = bytesOf(sig)
    if (!canonicalSignature(s)) return [false]
    const m = bytesOf(msg)
    chargeParam(ctx, G + "per_sig_strict_verify")
    chargeParam(ctx, G + "per_msg_hashing_base")
    chargeParam(ctx, G + "per_msg_byte_hashing", m.length)
    return [verifyStrictFastUnremembered(s, key, m)]
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
    if (!verifyStrictFastUnremembered(sig.subarray(64 * j, 64 * j + 64), s.keys[signers[j]!]!, msg)) return false
  }
  return true
}

/** The number of 64-byte signatures a packed Multi-Ed25519 signature carries. */
export const multiEd25519SignatureCount = (sig: Uint8Array): number => Math.floor(sig.length / 64)

/**
 * How many leading 32-byte chunks of `bytes` are valid keys (on the curve, not of small order),
 * stopping at the first that is not, each paid before it is checked.
 */
const validChunks = (ctx: Parameters<NativeFunction>[0], bytes: Uint8Array): number => {
  let valid = 0
  for (let i = 0; i + 32 <= bytes.length; i += 32) {
    chargeParam(ctx, G + "per_pubkey_deserialize")
    chargeParam(ctx, G + "per_pubkey_small_order_check")
    if (!validPublicKey(bytes.subarray(i, i + 32))) break
    valid++
  }
  return valid
}

export const multiEd25519Natives: Record<string, NativeFunction> = {
  /** v1 (with the reference's gas fix): every whole 32-byte chunk valid, at most 32; no threshold check. */
  public_key_validate_internal: (ctx, _t, [pk]) => {
    chargeParam(ctx, G + "base")
    const bytes = bytesOf(pk)
    const n = Math.floor(bytes.length / 32)
    if (n > 32) return [false]
    return [validChunks(ctx, bytes) === n]
  },
  /** v2: the t-of-n layout first (`check_and_get_threshold`), then every key valid. */
  public_key_validate_v2_internal: (ctx, _t, [pk]) => {
    chargeParam(ctx, G + "base")
    const bytes = bytesOf(pk)
    const s = splitMultiEd25519Key(bytes)
    if (s === undefined) return [false]
    return [validChunks(ctx, bytes) === s.keys.length]
  },
  signature_verify_strict_internal: (ctx, _t, [sig, pk, msg]) => {
    chargeParam(ctx, G + "base")
    const key = bytesOf(pk)
    const s = bytesOf(sig)
    const m = bytesOf(msg)
    chargeParam(ctx, G + "per_pubkey_deserialize", Math.floor(key.length / 32))
    const keys = splitMultiEd25519Key(key)
    if (keys === undefined || !keys.keys.every(decompresses)) return [false]
    const sigs = Math.floor(s.length / 64)
    chargeParam(ctx, G + "per_sig_deserialize", sigs)
    if (s.length % 64 !== 4 || sigs < 1 || sigs > 32) return [false]
    let ones = 0
    for (const b of s.subarray(s.length - 4)) for (let x = b; x !== 0; x &= x - 1) ones++
    if (ones !== sigs) return [false]
    for (let i = 0; i < sigs; i++) if (!canonicalSignature(s.subarray(64 * i, 64 * i + 64))) return [false]
    chargeParam(ctx, G + "per_sig_strict_verify", sigs)
    chargeParam(ctx, G + "per_msg_hashing_base", sigs)
    chargeParam(ctx, G + "per_msg_byte_hashing", m.length * sigs)
    return [verifyMultiEd25519(s, key, m)]
  }
}
