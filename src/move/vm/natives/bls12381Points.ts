/**
 * BLS12-381 point encodings as blst reads and writes them (the reference's `blst::min_pk`), over
 * @noble/curves field and point operations:
 * - decoding checks the encoding and that the point is on the curve, NOT subgroup membership
 *   (`PublicKey::from_bytes` / `Signature::from_bytes`; subgroup checks are separate steps, as in
 *   the reference). Compressed (flag 0x80: 48 bytes in G1, 96 in G2) and uncompressed (192 / 96)
 *   forms, infinity only as flag 0x40 with every other bit zero, coordinates below p, x = 0 refused
 *   (blst's POINT_NOT_IN_GROUP), the 0x20 flag choosing the lexicographically largest y;
 * - encoding is the compressed form of any point on the curve (noble's own encoder insists on the
 *   subgroup; an aggregate of unchecked signatures may not be in it).
 * Never throws: bad bytes decode to undefined.
 */
import { bls12_381 } from "@noble/curves/bls12-381.js"

const { Fp, Fp2 } = bls12_381.fields
type Fp2Value = ReturnType<typeof Fp2.create>
export type G1Point = InstanceType<typeof bls12_381.G1.Point>
export type G2Point = InstanceType<typeof bls12_381.G2.Point>
const G1 = bls12_381.G1.Point
const G2 = bls12_381.G2.Point

const P = Fp.ORDER
const HALF = (P - 1n) / 2n
const B1 = 4n
const B2 = Fp2.create({ c0: 4n, c1: 4n })

const be = (b: Uint8Array, from: number, to: number): bigint => {
  let n = 0n
  for (let i = from; i < to; i++) n = (n << 8n) | BigInt(b[i]!)
  return n
}

const toBe = (n: bigint, out: Uint8Array, at: number, len = 48): void => {
  for (let i = len - 1; i >= 0; i--, n >>= 8n) out[at + i] = Number(n & 0xffn)
}

/** The payload after the flags of byte 0 is all zero (the infinity encoding). */
const zeroPayload = (b: Uint8Array): boolean => {
  if ((b[0]! & 0x3f) !== 0) return false
  for (let i = 1; i < b.length; i++) if (b[i] !== 0) return false
  return true
}

/** Field element from 48 big-endian bytes at `at` (flags of byte 0 cleared when `masked`); undefined if ≥ p. */
const fp = (b: Uint8Array, at: number, masked: boolean): bigint | undefined => {
  let n = be(b, at, at + 48)
  if (masked) n &= (1n << 381n) - 1n
  return n < P ? n : undefined
}

/** blst's sort flag: whether y is the larger of ±y (for Fp2, c1 decides unless zero). */
const largest1 = (y: bigint): boolean => y > HALF
const largest2 = (y: Fp2Value): boolean => (y.c1 !== 0n ? y.c1 > HALF : y.c0 > HALF)

const sqrt1 = (v: bigint): bigint | undefined => {
  try {
    const r = Fp.sqrt(v)
    return Fp.eql(Fp.sqr(r), v) ? r : undefined
  } catch {
    return undefined
  }
}

const sqrt2 = (v: Fp2Value): Fp2Value | undefined => {
  try {
    const r = Fp2.sqrt(v)
    return Fp2.eql(Fp2.sqr(r), v) ? r : undefined
  } catch {
    return undefined
  }
}

/** A G1 point from 48 (compressed) or 96 (uncompressed) bytes, on the curve; undefined otherwise. */
export const decodeG1 = (b: Uint8Array): G1Point | undefined => {
  const b0 = b[0] ?? 0
  const compressed = (b0 & 0x80) !== 0
  if (b.length !== (compressed ? 48 : 96)) return undefined
  if (b0 & 0x40) return zeroPayload(b) ? G1.ZERO : undefined
  if (!compressed && b0 & 0x20) return undefined
  const x = fp(b, 0, compressed)
  if (x === undefined || x === 0n) return undefined
  const rhs = Fp.add(Fp.mul(Fp.sqr(x), x), B1)
  let y: bigint | undefined
  if (compressed) {
    y = sqrt1(rhs)
    if (y === undefined) return undefined
    if (largest1(y) !== ((b0 & 0x20) !== 0)) y = Fp.neg(y)
  } else {
    y = fp(b, 48, false)
    if (y === undefined || !Fp.eql(Fp.sqr(y), rhs)) return undefined
  }
  return G1.fromAffine({ x, y })
}

/** A G2 point from 96 (compressed) or 192 (uncompressed) bytes (c1 ‖ c0 per coordinate), on the curve. */
export const decodeG2 = (b: Uint8Array): G2Point | undefined => {
  const b0 = b[0] ?? 0
  const compressed = (b0 & 0x80) !== 0
  if (b.length !== (compressed ? 96 : 192)) return undefined
  if (b0 & 0x40) return zeroPayload(b) ? G2.ZERO : undefined
  if (!compressed && b0 & 0x20) return undefined
  const x1 = fp(b, 0, compressed)
  const x0 = fp(b, 48, false)
  if (x1 === undefined || x0 === undefined || (x1 === 0n && x0 === 0n)) return undefined
  const x = Fp2.create({ c0: x0, c1: x1 })
  const rhs = Fp2.add(Fp2.mul(Fp2.sqr(x), x), B2)
  let y: Fp2Value | undefined
  if (compressed) {
    y = sqrt2(rhs)
    if (y === undefined) return undefined
    if (largest2(y) !== ((b0 & 0x20) !== 0)) y = Fp2.neg(y)
  } else {
    const y1 = fp(b, 96, false)
    const y0 = fp(b, 144, false)
    if (y1 === undefined || y0 === undefined) return undefined
    y = Fp2.create({ c0: y0, c1: y1 })
    if (!Fp2.eql(Fp2.sqr(y), rhs)) return undefined
  }
  return G2.fromAffine({ x, y })
}

/** Compressed G1 encoding (48 bytes) of any point on the curve. */
export const encodeG1 = (p: G1Point): Uint8Array => {
  const out = new Uint8Array(48)
  if (p.is0()) {
    out[0] = 0xc0
    return out
  }
  const { x, y } = p.toAffine()
  toBe(x, out, 0)
  out[0]! |= largest1(y) ? 0xa0 : 0x80
  return out
}

/** Compressed G2 encoding (96 bytes) of any point on the curve. */
export const encodeG2 = (p: G2Point): Uint8Array => {
  const out = new Uint8Array(96)
  if (p.is0()) {
    out[0] = 0xc0
    return out
  }
  const { x, y } = p.toAffine()
  toBe(x.c1, out, 0)
  toBe(x.c0, out, 48)
  out[0]! |= largest2(y) ? 0xa0 : 0x80
  return out
}
