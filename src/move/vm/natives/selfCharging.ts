/**
 * Natives that charge the reference's own gas formula (base + per item / per byte, read from the
 * schedule's `aptos_framework.<module>.*` entries with `chargeParam`), so the interpreter's flat
 * per-native charge is 0 for them (`GasSchedule.nativeCosts`). Kept import-free: the gas schedule
 * reads it without loading the natives.
 */
const names = (module: string, fns: ReadonlyArray<string>): string[] => fns.map((f) => `0x1::${module}::${f}`)

export const SELF_CHARGING_NATIVES: ReadonlyArray<string> = [
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
  ...names("secp256k1", ["ecdsa_recover_internal"])
]
