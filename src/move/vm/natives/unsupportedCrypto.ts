/**
 * Crypto natives movenode does not implement yet, failing the way the reference fails for
 * something it does not support, so a caller gets a Move abort it can read rather than a missing
 * native:
 * - `0x1::crypto_algebra::*` (22 natives, generic over BLS12-381 / BN254 structures): abort
 *   NOT_IMPLEMENTED (`std::error::not_implemented(1)` = 0x0C_0001), the reference's answer for a
 *   structure or operation it does not support;
 * - `0x1::ristretto255_bulletproofs::verify_range_proof_internal`,
 *   `verify_batch_range_proof_internal` and `0x1::confidential_range_proofs::
 *   verify_batch_range_proof_internal`: abort `invalid_state(E_NATIVE_FUN_NOT_AVAILABLE)` of their
 *   module (the code the Move side aborts with when the feature is off), read from the module's
 *   error map.
 * Listed in docs/crypto-natives.md.
 */
import { abortCodeNamed } from "../moduleMetadata.js"
import { type NativeFunction, nativeAbort } from "./NativeContext.js"
import { ONE } from "./helpers.js"

/** `std::error::not_implemented(1)`, the reference's MOVE_ABORT_CODE_NOT_IMPLEMENTED. */
export const NOT_IMPLEMENTED = 0x0c_0001n

const notImplemented: NativeFunction = (ctx) => nativeAbort(ctx, NOT_IMPLEMENTED)

export const cryptoAlgebraNatives: Record<string, NativeFunction> = Object.fromEntries(
  [
    "add_internal",
    "deserialize_internal",
    "div_internal",
    "double_internal",
    "downcast_internal",
    "eq_internal",
    "from_u64_internal",
    "hash_to_internal",
    "inv_internal",
    "mul_internal",
    "multi_pairing_internal",
    "multi_scalar_mul_internal",
    "neg_internal",
    "one_internal",
    "order_internal",
    "pairing_internal",
    "scalar_mul_internal",
    "serialize_internal",
    "sqr_internal",
    "sub_internal",
    "upcast_internal",
    "zero_internal"
  ].map((name) => [name, notImplemented])
)

/** `invalid_state(E_NATIVE_FUN_NOT_AVAILABLE)` of the native's module (0x3_0000 | the error map's code). */
const notAvailable: NativeFunction = (ctx) => {
  const m = ctx.loader.tryLoad(ONE, ctx.module.name)
  const code = m === undefined ? undefined : abortCodeNamed(m.metadata, "E_NATIVE_FUN_NOT_AVAILABLE")
  return nativeAbort(ctx, (3n << 16n) | (code ?? 0n))
}

export const bulletproofsNatives: Record<string, NativeFunction> = {
  verify_range_proof_internal: notAvailable,
  verify_batch_range_proof_internal: notAvailable
}

export const confidentialRangeProofsNatives: Record<string, NativeFunction> = {
  verify_batch_range_proof_internal: notAvailable
}
