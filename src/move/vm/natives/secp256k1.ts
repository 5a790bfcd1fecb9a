/**
 * `0x1::secp256k1::ecdsa_recover_internal(message, recovery_id, signature): (vector<u8>, bool)` as
 * the reference's native over libsecp256k1:
 * - the message must be exactly 32 bytes (used as the digest, reduced mod n), the recovery id
 *   below 4, the signature 64 bytes r ‖ s with r, s < n; otherwise it aborts with
 *   NFE_DESERIALIZE (0x1_0001, invalid_argument(1)) in `0x1::secp256k1`;
 * - recovery failures (r or s zero, no curve point for r, the point at infinity) answer
 *   `([], false)`; high-S signatures recover (no malleability check here, as in the reference);
 * - success answers the 64-byte raw key x ‖ y.
 * Gas: `aptos_framework.secp256k1.base`, then `.ecdsa_recover` once the inputs parsed.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { beScalar } from "../../../domain/scalarBytes.js"
import { fromBytes } from "../Value.js"
import { bytesOf, chargeParam, deref } from "./helpers.js"
import { type NativeFunction, nativeAbort } from "./NativeContext.js"

export const NFE_DESERIALIZE = 0x1_0001n

const N = secp256k1.Point.Fn.ORDER

/** The raw 64-byte public key recovered from a valid (r, s, id) over `digest`, or undefined. */
export const ecdsaRecover = (digest: Uint8Array, recoveryId: number, signature: Uint8Array): Uint8Array | undefined => {
  const r = beScalar(signature.subarray(0, 32))
  const s = beScalar(signature.subarray(32))
  if (r === 0n || s === 0n) return undefined
  try {
    const sig = secp256k1.Signature.fromBytes(signature, "compact").addRecoveryBit(recoveryId)
    return sig.recoverPublicKey(digest).toBytes(false).subarray(1)
  } catch {
    return undefined
  }
}

export const secp256k1Natives: Record<string, NativeFunction> = {
  ecdsa_recover_internal: (ctx, _t, [message, recoveryId, signature]) => {
    chargeParam(ctx, "aptos_framework.secp256k1.base")
    const msg = bytesOf(message)
    const id = deref(recoveryId!) as number
    const sig = bytesOf(signature)
    if (msg.length !== 32 || id > 3 || sig.length !== 64) return nativeAbort(ctx, NFE_DESERIALIZE)
    if (beScalar(sig.subarray(0, 32)) >= N || beScalar(sig.subarray(32)) >= N) return nativeAbort(ctx, NFE_DESERIALIZE)
    chargeParam(ctx, "aptos_framework.secp256k1.ecdsa_recover")
    const pk = ecdsaRecover(msg, id, sig)
    return pk === undefined ? [[], false] : [fromBytes(pk), true]
  }
}
