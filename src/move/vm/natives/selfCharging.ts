/**
 * Natives that charge the reference's own gas formula (base + per item / per byte, read from the
 * schedule's `aptos_framework.<module>.*` entries with `chargeParam`), so the interpreter's flat
 * per-native charge is 0 for them (`GasSchedule.nativeCosts`). Kept import-free: the gas schedule
 * reads it without loading the natives.
 */
const names = (module: string, fns: ReadonlyArray<string>): string[] => fns.map((f) => `0x1::${module}::${f}`)

export const SELF_CHARGING_NATIVES: ReadonlyArray<string> = [
  ...names("ed25519", ["public_key_validate_internal", "signature_verify_strict_internal"]),
  ...names("multi_ed25519", [
    "public_key_validate_internal",
    "public_key_validate_v2_internal",
    "signature_verify_strict_internal"
  ]),
  ...names("bls12381", [
    "aggregate_pubkeys_internal",
    "aggregate_signatures_internal",
    "signature_subgroup_check_internal",
    "validate_pubkey_internal",
    "verify_aggregate_signature_internal",
    "verify_multisignature_internal",
    "verify_normal_signature_internal",
    "verify_proof_of_possession_internal",
    "verify_signature_share_internal"
  ]),
  ...names("secp256k1", ["ecdsa_recover_internal"]),
  ...names("ristretto255", [
    "point_is_canonical_internal",
    "point_identity_internal",
    "point_decompress_internal",
    "point_clone_internal",
    "point_compress_internal",
    "point_mul_internal",
    "point_equals",
    "point_neg_internal",
    "point_add_internal",
    "point_sub_internal",
    "basepoint_mul_internal",
    "basepoint_double_mul_internal",
    "double_scalar_mul_internal",
    "multi_scalar_mul_internal",
    "new_point_from_sha512_internal",
    "new_point_from_sha2_512_internal",
    "new_point_from_64_uniform_bytes_internal",
    "scalar_is_canonical_internal",
    "scalar_from_u64_internal",
    "scalar_from_u128_internal",
    "scalar_reduced_from_32_bytes_internal",
    "scalar_uniform_from_64_bytes_internal",
    "scalar_invert_internal",
    "scalar_from_sha512_internal",
    "scalar_from_sha2_512_internal",
    "scalar_mul_internal",
    "scalar_add_internal",
    "scalar_sub_internal",
    "scalar_neg_internal"
  ])
]
