/**
 * `0x1::bls12381` natives: minimum-public-key-size BLS over BLS12-381 (48-byte G1 public keys,
 * 96-byte G2 signatures), as the reference's natives over `aptos-crypto`/blst:
 * - signatures hash with DST `BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_`, proofs of possession
 *   sign the 48-byte compressed public key with `BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_`;
 * - keys and signatures decode with on-curve checks only (`bls12381Points.ts`); verification
 *   subgroup-checks the signature, and the key where the reference does (normal signatures, PoPs),
 *   refuses identity public keys, and skips an identity signature's pairing as blst does;
 * - gas: the schedule's `aptos_framework.bls12381.*` entries charged step by step in the
 *   reference's order (including its charge of `per_pubkey_deserialize` for the public-key subgroup
 *   check), so a run out of gas stops before the work it could not pay for.
 * Every native answers false / (empty, false) on bad input; none aborts.
 */
import { bls12_381 } from "@noble/curves/bls12-381.js"
import { fromBytes, type StructValue, type Value } from "../Value.js"
import { bytesOf, chargeParam, deref } from "./helpers.js"
import type { NativeContext, NativeFunction } from "./NativeContext.js"
import { decodeG1, decodeG2, encodeG1, encodeG2, type G1Point, type G2Point } from "./bls12381Points.js"

export const DST_BLS_SIG = "BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_"
export const DST_BLS_POP = "BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_"

const G = "aptos_framework.bls12381."
const Fp12 = bls12_381.fields.Fp12
const NEG_G1 = bls12_381.G1.Point.BASE.negate()

const hashToG2 = (msg: Uint8Array, dst: string): G2Point => bls12_381.G2.hashToCurve(msg, { DST: dst }) as G2Point

/**
 * blst's `aggregate_verify(sig_groupcheck = true, msgs, dst, pks, pks_validate)`: ∏ e(pk_i, H(m_i))
 * = e(g1, sig). No pairs, or a length mismatch, fail; an identity public key fails; with
 * `pkValidate` each key must be in the prime-order subgroup; the signature must be too (the
 * identity is in it, and its pairing is skipped).
 */
export const aggregateVerify = (
  sig: G2Point,
  pairs: ReadonlyArray<readonly [G1Point, Uint8Array]>,
  dst: string,
  pkValidate: boolean
): boolean => {
  if (pairs.length === 0) return false
  for (const [pk] of pairs) if (pk.is0() || (pkValidate && !pk.isTorsionFree())) return false
  if (!sig.isTorsionFree()) return false
  try {
    const batch = pairs.map(([g1, m]) => ({ g1, g2: hashToG2(m, dst) }))
    if (!sig.is0()) batch.push({ g1: NEG_G1, g2: sig })
    return Fp12.eql(bls12_381.pairingBatch(batch), Fp12.ONE)
  } catch {
    return false
  }
}

/** The `bytes` field of each `{ bytes: vector<u8> }` struct in a vector argument. */
const structBytes = (v: Value): Uint8Array[] =>
  (deref(v) as Value[]).map((s) => Uint8Array.from((s as StructValue).fields[0] as number[]))

const pkOf = (ctx: NativeContext, bytes: Uint8Array): G1Point | undefined => {
  chargeParam(ctx, G + "per_pubkey_deserialize")
  return decodeG1(bytes)
}

const sigOf = (ctx: NativeContext, bytes: Uint8Array): G2Point | undefined => {
  chargeParam(ctx, G + "per_sig_deserialize")
  return decodeG2(bytes)
}

/** Decodes every key (or signature), charging per decoding, stopping at the first that fails. */
const decodeAll = <P>(
  ctx: NativeContext,
  all: Uint8Array[],
  one: (c: NativeContext, b: Uint8Array) => P | undefined
) => {
  const out: P[] = []
  for (const b of all) {
    const p = one(ctx, b)
    if (p === undefined) return undefined
    out.push(p)
  }
  return out
}

const chargeVerify = (ctx: NativeContext, msgLength: number): void => {
  chargeParam(ctx, G + "per_sig_verify")
  chargeParam(ctx, G + "per_msg_hashing")
  chargeParam(ctx, G + "per_byte_hashing", msgLength)
}

/** verify_{normal_signature, multisignature, signature_share}: one signature, one key, one message. */
const verifySignatureNative =
  (checkPkSubgroup: boolean): NativeFunction =>
  (ctx, _t, [sig, pk, msg]) => {
    chargeParam(ctx, G + "base")
    const p = pkOf(ctx, bytesOf(pk))
    if (p === undefined) return [false]
    if (checkPkSubgroup) {
      // The reference charges per_pubkey_deserialize (not per_pubkey_subgroup_check) here.
      chargeParam(ctx, G + "per_pubkey_deserialize")
      if (p.is0() || !p.isTorsionFree()) return [false]
    }
    const s = sigOf(ctx, bytesOf(sig))
    if (s === undefined) return [false]
    const m = bytesOf(msg)
    chargeVerify(ctx, m.length)
    return [aggregateVerify(s, [[p, m]], DST_BLS_SIG, false)]
  }

const NONE: Value[] = [[], false]

export const bls12381Natives: Record<string, NativeFunction> = {
  aggregate_pubkeys_internal: (ctx, _t, [keys]) => {
    chargeParam(ctx, G + "base")
    const all = structBytes(keys!)
    if (all.length === 0) return NONE
    const pks = decodeAll(ctx, all, pkOf)
    if (pks === undefined) return NONE
    chargeParam(ctx, G + "per_pubkey_aggregate", pks.length)
    return [fromBytes(encodeG1(pks.reduce((a, b) => a.add(b)))), true]
  },
  aggregate_signatures_internal: (ctx, _t, [sigs]) => {
    chargeParam(ctx, G + "base")
    const all = structBytes(sigs!)
    if (all.length === 0) return NONE
    const points = decodeAll(ctx, all, sigOf)
    if (points === undefined) return NONE
    chargeParam(ctx, G + "per_sig_aggregate", points.length)
    return [fromBytes(encodeG2(points.reduce((a, b) => a.add(b)))), true]
  },
  signature_subgroup_check_internal: (ctx, _t, [sig]) => {
    chargeParam(ctx, G + "base")
    const s = sigOf(ctx, bytesOf(sig))
    if (s === undefined) return [false]
    chargeParam(ctx, G + "per_sig_subgroup_check")
    return [!s.is0() && s.isTorsionFree()]
  },
  validate_pubkey_internal: (ctx, _t, [pk]) => {
    chargeParam(ctx, G + "base")
    const p = pkOf(ctx, bytesOf(pk))
    if (p === undefined) return [false]
    chargeParam(ctx, G + "per_pubkey_deserialize") // the reference's charge for the subgroup check
    return [!p.is0() && p.isTorsionFree()]
  },
  verify_aggregate_signature_internal: (ctx, _t, [aggsig, keys, msgs]) => {
    chargeParam(ctx, G + "base")
    const messages = (deref(msgs!) as Value[]).map((m) => Uint8Array.from(m as number[]))
    const all = structBytes(keys!)
    if (all.length !== messages.length) return [false]
    const pks = decodeAll(ctx, all, pkOf)
    if (pks === undefined) return [false]
    const s = sigOf(ctx, bytesOf(aggsig))
    if (s === undefined) return [false]
    chargeParam(ctx, G + "per_pairing", messages.length + 1)
    chargeParam(ctx, G + "per_msg_hashing", messages.length)
    chargeParam(
      ctx,
      G + "per_byte_hashing",
      messages.reduce((n, m) => n + m.length, 0)
    )
    return [
      aggregateVerify(
        s,
        pks.map((p, i) => [p, messages[i]!] as const),
        DST_BLS_SIG,
        false
      )
    ]
  },
  verify_multisignature_internal: verifySignatureNative(false),
  verify_normal_signature_internal: verifySignatureNative(true),
  verify_signature_share_internal: verifySignatureNative(false),
  verify_proof_of_possession_internal: (ctx, _t, [pk, pop]) => {
    chargeParam(ctx, G + "base")
    const p = pkOf(ctx, bytesOf(pk))
    if (p === undefined) return [false]
    const s = sigOf(ctx, bytesOf(pop))
    if (s === undefined) return [false]
    chargeParam(ctx, G + "per_pop_verify")
    return [verifyProofOfPossession(p, s)]
  }
}

/** PoP check (`ProofOfPossession::verify`): a signature of the key's compressed bytes, key validated. */
export const verifyProofOfPossession = (pk: G1Point, pop: G2Point): boolean =>
  !pk.is0() && pk.isTorsionFree() && aggregateVerify(pop, [[pk, encodeG1(pk)]], DST_BLS_POP, true)

/**
 * A BLS12-381 key pair with its proof of possession, as a validator's consensus key is registered
 * (`stake::initialize_validator` / genesis): the 32-byte big-endian secret scalar (1 ≤ sk < r), the
 * 48-byte compressed public key, the 96-byte PoP. From a given secret key, or a random one.
 */
export const blsKeyWithPop = (
  secretKey: Uint8Array = bls12_381.utils.randomSecretKey()
): { secretKey: Uint8Array; publicKey: Uint8Array; proofOfPossession: Uint8Array } => {
  const sigs = bls12_381.longSignatures
  const publicKey = sigs.getPublicKey(secretKey).toBytes(true)
  const pop = sigs.sign(sigs.hash(publicKey, DST_BLS_POP), secretKey)
  return { secretKey, publicKey, proofOfPossession: sigs.Signature.toBytes(pop) }
}

/** A BLS signature (96 bytes) of `message` under `secretKey`, with the signing DST. */
export const blsSign = (secretKey: Uint8Array, message: Uint8Array): Uint8Array => {
  const sigs = bls12_381.longSignatures
  return sigs.Signature.toBytes(sigs.sign(sigs.hash(message, DST_BLS_SIG), secretKey))
}
