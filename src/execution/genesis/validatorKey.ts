import { bls12_381 } from "@noble/curves/bls12-381.js"
import { sha512 } from "@noble/hashes/sha2.js"
import { fromHex } from "../../bcs/index.js"

const hex = (s: string): Uint8Array => fromHex(s) as Uint8Array

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
 * the 48 bytes of key material the curve library's key generation takes. Costs 100–350 ms in a
 * fresh process (key generation, hashing to G2, signing); `validatorConsensusKey` answers the
 * local chain's default seed from constants.
 */
export const deriveValidatorConsensusKey = (seed: Uint8Array): ValidatorConsensusKey => {
  const bls = bls12_381.longSignatures
  const { secretKey, publicKey } = bls.keygen(sha512(seed).subarray(0, 48))
  const pk = publicKey.toBytes(true)
  const pop = bls.sign(bls.hash(pk, POP_DST), secretKey).toBytes(true)
  return { secretKey, publicKey: pk, proofOfPossession: pop }
}

/**
 * `deriveValidatorConsensusKey` of the all-zero seed, the local chain's validator (every local
 * genesis builds with it, so every start would pay the derivation): written out, and checked
 * against the derivation and by the VM's proof-of-possession native in
 * test/execution/genesis/validatorKey.test.ts.
 */
export const ZERO_SEED_CONSENSUS_KEY: ValidatorConsensusKey = {
  secretKey: hex("0x1371d60bbb2c9745a497485828591f8a1970ded2db673446d360fc557c8d637d"),
  publicKey: hex("0x981e35ec66afe48c2f9baa58348365d380c27309c86e02eaffa1c89ddfaf5cd318f272aad3513cac051245cee92d5a94"),
  proofOfPossession: hex(
    "0x846f7be1e68e046a935c21d81f7820178c9578410aba128dadb828e8943bad7f6fbeb9493810ae2f641f4ebb7615ed8c" +
      "151c1484eb80738f8af33e9678975af8adc16db314e02495257942a36535c711ab1970e503057a06e309e05e71e15758"
  )
}

/** The consensus key of `seed`: the constant for the all-zero seed, derived for any other. */
export const validatorConsensusKey = (seed: Uint8Array): ValidatorConsensusKey =>
  seed.length === 32 && seed.every((b) => b === 0) ? ZERO_SEED_CONSENSUS_KEY : deriveValidatorConsensusKey(seed)
