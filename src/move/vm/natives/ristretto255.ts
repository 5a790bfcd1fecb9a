/**
 * `0x1::ristretto255` natives over @noble/curves' ristretto255 (RFC 9496), as the reference's
 * natives over curve25519-dalek:
 * - points live in a per-session store; Move's `RistrettoPoint { handle: u64 }` holds the index
 *   (handles count up from 0 in creation order, as the reference's, so a Move test's handle checks
 *   hold); more than 10,000 points in one session abort E_TOO_MANY_POINTS_CREATED (0x09_0004);
 * - scalars are 32-byte little-endian vectors; Move only builds canonical ones, results are
 *   reduced mod ℓ, `invert(0)` is 0 (the Move side refuses zero first);
 * - `*_from_sha512` hash with SHA-512 then reduce (scalars) or map 64 uniform bytes (points,
 *   RFC 9496 element derivation); decompression is RFC 9496 decoding (canonical encodings only);
 * - gas: the schedule's `aptos_framework.ristretto255.*` entries as the reference charges them
 *   (multi-scalar multiplication: per point and scalar argument plus point_mul × n / ⌊log₂(n + 1)⌋).
 */
import { ristretto255, ristretto255_hasher } from "@noble/curves/ed25519.js"
import { sha512 } from "@noble/hashes/sha2.js"
import type { Session } from "../Session.js"
import { fromBytes, type StructValue, type Value } from "../Value.js"
import { vmError } from "../VmError.js"
import { bytesOf, chargeParam, deref } from "./helpers.js"
import { type NativeContext, type NativeFunction, nativeAbort } from "./NativeContext.js"

const Point = ristretto255.Point
type RistrettoPoint = InstanceType<typeof Point>
const L = Point.Fn.ORDER
const G = "aptos_framework.ristretto255."

/** At most this many points per session (the reference's NUM_POINTS_LIMIT). */
export const NUM_POINTS_LIMIT = 10_000
/** `std::error::resource_exhausted(4)`. */
export const E_TOO_MANY_POINTS_CREATED = 0x09_0004n

const stores = new WeakMap<Session, RistrettoPoint[]>()
const storeOf = (ctx: NativeContext): RistrettoPoint[] => {
  let s = stores.get(ctx.session)
  if (s === undefined) {
    s = []
    stores.set(ctx.session, s)
  }
  return s
}

const addPoint = (ctx: NativeContext, p: RistrettoPoint): bigint => {
  const store = storeOf(ctx)
  if (store.length >= NUM_POINTS_LIMIT) return nativeAbort(ctx, E_TOO_MANY_POINTS_CREATED)
  store.push(p)
  return BigInt(store.length - 1)
}

const pointAt = (ctx: NativeContext, handle: bigint): RistrettoPoint => {
  const p = storeOf(ctx)[Number(handle)]
  return p ?? vmError("UNKNOWN_INVARIANT_VIOLATION_ERROR", `no Ristretto point with handle ${handle}`)
}

/** The handle inside a `&RistrettoPoint` argument. */
const handleOf = (v: Value): bigint => (deref(v) as StructValue).fields[0] as bigint

const le = (b: Uint8Array): bigint => {
  let n = 0n
  for (let i = b.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(b[i]!)
  return n
}

const toLe32 = (n: bigint): Value[] => {
  const out = new Array<Value>(32)
  for (let i = 0; i < 32; i++, n >>= 8n) out[i] = Number(n & 0xffn)
  return out
}

/** A Move scalar's bytes (32, little-endian; the high bit cleared as dalek's `Scalar::from_bits`). */
const scalarOf = (v: Value): bigint => {
  const b = bytesOf(v)
  if (b.length !== 32) return vmError("INTERNAL_TYPE_ERROR", "a Ristretto255 scalar must be 32 bytes")
  return le(b) & ((1n << 255n) - 1n)
}

const fixedBytes = (v: Value, n: number): Uint8Array => {
  const b = bytesOf(v)
  return b.length === n ? b : vmError("INTERNAL_TYPE_ERROR", `expected ${n} bytes, got ${b.length}`)
}

const mul = (p: RistrettoPoint, s: bigint): RistrettoPoint => p.multiplyUnsafe(s % L)

const decompress = (bytes: Uint8Array): RistrettoPoint | undefined => {
  if (bytes.length !== 32) return undefined
  try {
    return Point.fromBytes(bytes)
  } catch {
    return undefined
  }
}

const fromUniform = (bytes64: Uint8Array): RistrettoPoint =>
  ristretto255_hasher.deriveToCurve!(bytes64) as unknown as RistrettoPoint

/** ⌊log₂ n⌋ for n ≥ 1. */
const log2Floor = (n: number): number => 31 - Math.clz32(n)

const scalarResult = (n: bigint): Value[] => [toLe32(((n % L) + L) % L)]

const pointFromSha512: NativeFunction = (ctx, _t, [input]) => {
  const b = bytesOf(input)
  chargeParam(ctx, G + "point_from_64_uniform_bytes")
  chargeParam(ctx, G + "scalar_sha512_per_hash")
  chargeParam(ctx, G + "scalar_sha512_per_byte", b.length)
  return [addPoint(ctx, fromUniform(sha512(b)))]
}

const scalarFromSha512: NativeFunction = (ctx, _t, [input]) => {
  const b = bytesOf(input)
  chargeParam(ctx, G + "scalar_uniform_from_64_bytes")
  chargeParam(ctx, G + "scalar_sha512_per_hash")
  chargeParam(ctx, G + "scalar_sha512_per_byte", b.length)
  return scalarResult(le(sha512(b)))
}

/** In place (`in_place` true): the result replaces the point at `a`'s handle; else a new point. */
const result = (ctx: NativeContext, inPlace: Value, a: bigint, p: RistrettoPoint): Value[] => {
  if (inPlace === true) {
    storeOf(ctx)[Number(a)] = p
    return [a]
  }
  return [addPoint(ctx, p)]
}

export const ristretto255Natives: Record<string, NativeFunction> = {
  point_is_canonical_internal: (ctx, _t, [bytes]) => {
    chargeParam(ctx, G + "point_decompress")
    return [decompress(bytesOf(bytes)) !== undefined]
  },
  point_identity_internal: (ctx) => {
    chargeParam(ctx, G + "point_identity")
    return [addPoint(ctx, Point.ZERO)]
  },
  point_decompress_internal: (ctx, _t, [bytes]) => {
    chargeParam(ctx, G + "point_decompress")
    const p = decompress(bytesOf(bytes))
    return p === undefined ? [(1n << 64n) - 1n, false] : [addPoint(ctx, p), true]
  },
  point_clone_internal: (ctx, _t, [handle]) => {
    chargeParam(ctx, G + "point_clone")
    return [addPoint(ctx, pointAt(ctx, deref(handle!) as bigint))]
  },
  point_compress_internal: (ctx, _t, [point]) => {
    chargeParam(ctx, G + "point_compress")
    return [fromBytes(pointAt(ctx, handleOf(point!)).toBytes())]
  },
  point_mul_internal: (ctx, _t, [point, a, inPlace]) => {
    chargeParam(ctx, G + "point_mul")
    const h = handleOf(point!)
    return result(ctx, inPlace, h, mul(pointAt(ctx, h), scalarOf(a!)))
  },
  point_equals: (ctx, _t, [a, b]) => {
    chargeParam(ctx, G + "point_equals")
    return [pointAt(ctx, handleOf(a!)).equals(pointAt(ctx, handleOf(b!)))]
  },
  point_neg_internal: (ctx, _t, [point, inPlace]) => {
    chargeParam(ctx, G + "point_neg")
    const h = handleOf(point!)
    return result(ctx, inPlace, h, pointAt(ctx, h).negate())
  },
  point_add_internal: (ctx, _t, [a, b, inPlace]) => {
    chargeParam(ctx, G + "point_add")
    const h = handleOf(a!)
    return result(ctx, inPlace, h, pointAt(ctx, h).add(pointAt(ctx, handleOf(b!))))
  },
  point_sub_internal: (ctx, _t, [a, b, inPlace]) => {
    chargeParam(ctx, G + "point_sub")
    const h = handleOf(a!)
    return result(ctx, inPlace, h, pointAt(ctx, h).subtract(pointAt(ctx, handleOf(b!))))
  },
  basepoint_mul_internal: (ctx, _t, [a]) => {
    chargeParam(ctx, G + "basepoint_mul")
    return [addPoint(ctx, mul(Point.BASE, scalarOf(a!)))]
  },
  basepoint_double_mul_internal: (ctx, _t, [a, point, b]) => {
    chargeParam(ctx, G + "basepoint_double_mul")
    const p = mul(pointAt(ctx, handleOf(point!)), scalarOf(a!)).add(mul(Point.BASE, scalarOf(b!)))
    return [addPoint(ctx, p)]
  },
  double_scalar_mul_internal: (ctx, _t, [h1, h2, s1, s2]) => {
    chargeParam(ctx, G + "point_double_mul")
    const p1 = pointAt(ctx, deref(h1!) as bigint)
    const p2 = pointAt(ctx, deref(h2!) as bigint)
    return [addPoint(ctx, mul(p1, scalarOf(s1!)).add(mul(p2, scalarOf(s2!))))]
  },
  multi_scalar_mul_internal: (ctx, _t, [points, scalars]) => {
    const ps = deref(points!) as Value[]
    const ss = deref(scalars!) as Value[]
    const n = ss.length
    if (n === 0 || ps.length !== n)
      return vmError("INTERNAL_TYPE_ERROR", "multi_scalar_mul needs as many points as scalars, at least one")
    chargeParam(ctx, G + "point_parse_arg", n)
    chargeParam(ctx, G + "scalar_parse_arg", n)
    chargeParam(ctx, G + "point_mul", Math.floor(n / log2Floor(n + 1)))
    let acc = Point.ZERO
    for (let i = 0; i < n; i++) {
      const s = scalarOf((deref(ss[i]!) as StructValue).fields[0]!)
      acc = acc.add(mul(pointAt(ctx, handleOf(ps[i]!)), s))
    }
    return [addPoint(ctx, acc)]
  },
  new_point_from_sha512_internal: pointFromSha512,
  new_point_from_sha2_512_internal: pointFromSha512,
  new_point_from_64_uniform_bytes_internal: (ctx, _t, [bytes]) => {
    chargeParam(ctx, G + "point_from_64_uniform_bytes")
    return [addPoint(ctx, fromUniform(fixedBytes(bytes!, 64)))]
  },
  scalar_is_canonical_internal: (ctx, _t, [bytes]) => {
    chargeParam(ctx, G + "scalar_is_canonical")
    const b = bytesOf(bytes)
    return [b.length === 32 && le(b) < L]
  },
  scalar_from_u64_internal: (ctx, _t, [n]) => {
    chargeParam(ctx, G + "scalar_from_u64")
    return scalarResult(deref(n!) as bigint)
  },
  scalar_from_u128_internal: (ctx, _t, [n]) => {
    chargeParam(ctx, G + "scalar_from_u128")
    return scalarResult(deref(n!) as bigint)
  },
  scalar_reduced_from_32_bytes_internal: (ctx, _t, [bytes]) => {
    chargeParam(ctx, G + "scalar_reduced_from_32_bytes")
    return scalarResult(le(fixedBytes(bytes!, 32)))
  },
  scalar_uniform_from_64_bytes_internal: (ctx, _t, [bytes]) => {
    chargeParam(ctx, G + "scalar_uniform_from_64_bytes")
    return scalarResult(le(fixedBytes(bytes!, 64)))
  },
  scalar_invert_internal: (ctx, _t, [bytes]) => {
    chargeParam(ctx, G + "scalar_invert")
    const s = scalarOf(bytes!) % L
    return scalarResult(s === 0n ? 0n : Point.Fn.inv(s))
  },
  scalar_from_sha512_internal: scalarFromSha512,
  scalar_from_sha2_512_internal: scalarFromSha512,
  scalar_mul_internal: (ctx, _t, [a, b]) => {
    chargeParam(ctx, G + "scalar_mul")
    return scalarResult(scalarOf(a!) * scalarOf(b!))
  },
  scalar_add_internal: (ctx, _t, [a, b]) => {
    chargeParam(ctx, G + "scalar_add")
    return scalarResult(scalarOf(a!) + scalarOf(b!))
  },
  scalar_sub_internal: (ctx, _t, [a, b]) => {
    chargeParam(ctx, G + "scalar_sub")
    return scalarResult(scalarOf(a!) - scalarOf(b!))
  },
  scalar_neg_internal: (ctx, _t, [a]) => {
    chargeParam(ctx, G + "scalar_neg")
    return scalarResult(-scalarOf(a!))
  }
}
