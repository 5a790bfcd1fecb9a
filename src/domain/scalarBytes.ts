/**
 * Unsigned integers from their bytes, for the signature schemes' scalars: big-endian (ECDSA's r and
 * s, SEC1) and little-endian (Ed25519's S and hashes). Any length; not for hot paths (BigInt
 * arithmetic a byte at a time), where the curves' own checks run once a signature.
 */

/** The unsigned integer `b` encodes big-endian. */
export const beScalar = (b: Uint8Array): bigint => {
  let n = 0n
  for (const x of b) n = (n << 8n) | BigInt(x)
  return n
}

/** The unsigned integer `b` encodes little-endian. */
export const leScalar = (b: Uint8Array): bigint => {
  let n = 0n
  for (let i = b.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(b[i]!)
  return n
}
