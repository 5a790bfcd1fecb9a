import { bls12_381 } from "@noble/curves/bls12-381.js"
import { sha512 } from "@noble/hashes/sha2.js"

/** The domain separation tag of BLS12-381 proofs of possession (min-pk, as the framework verifies them). */
export const POP_DST = "BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_"

/** A validator's consensus key: a BLS12-381 min-pk key (48-byte G1 public key) and its proof of possession. */
export interface ValidatorConsensusKey {
  readonly secretKey: Uint8Array
  /** Compressed G1 point, 48 bytes. */
  readonly publicKey: Uint8Array
  /** Signature of the public key's bytes under `POP_DST`: a compressed G2 point, 96 bytes. */
  readonly proofOfPossession: Uint8Array
}

/**
 * A consensus key derived from a seed (the same seed gives the same key: a local chain's genesis
 * can be rebuilt identically), with its proof of possession. The seed is stretched with SHA-512 to
 * the 48 bytes of key material the curve library's key generation takes.
 */
export const validatorConsensusKey = (seed: Uint8Array): ValidatorConsensusKey => {
  const bls = bls12_381.longSignatures
  const { secretKey, publicKey } = bls.keygen(sha512(seed).subarray(0, 48))
  const pk = publicKey.toBytes(true)
  const pop = bls.sign(bls.hash(pk, POP_DST), secretKey).toBytes(true)
  return { secretKey, publicKey: pk, proofOfPossession: pop }
}
