/**
 * libsodium's Ed25519 verification, through `sodium-native` (an optional dependency: one prebuilt
 * addon per platform in its package, nothing compiled at install), when it loads here.
 *
 * Why: the curve equation is most of what admitting a transfer costs (issue 22): OpenSSL 3.0's
 * Ed25519 (what `node:crypto` calls) takes ~62 µs a verification on the 2-core machines this
 * project is measured on (`openssl speed ed25519`), libsodium's ~38 µs (the same calls timed in one
 * script, docs/benchmarks.md "Session 43"). Where the addon does not load (a platform without a prebuilt build, an install
 * without optional dependencies), `undefined`: callers use OpenSSL, with the same answers.
 *
 * What libsodium checks (`crypto_sign_ed25519_verify_detached`): S canonical, R and A not of small
 * order, A canonical and on the curve, then the cofactorless `[S]B − [k]A` encoded and compared with
 * R's bytes, k = SHA-512(R ‖ A ‖ M) — for the canonical, not-small-order encodings callers hand it,
 * ed25519-dalek's `verify_strict` (`ed25519Fast.ts` says why, and where the other cases go).
 */
import { createRequire } from "node:module"

/** Whether `signature` (64 bytes) is valid for `message` under `publicKey` (32 bytes). */
export type Ed25519Verify = (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array) => boolean

const load = (): Ed25519Verify | undefined => {
  if (process.env.MOVENODE_ED25519 === "openssl") return undefined
  try {
    const sodium = createRequire(import.meta.url)("sodium-native") as { crypto_sign_verify_detached?: unknown }
    const verify = sodium.crypto_sign_verify_detached
    return typeof verify === "function" ? (verify as Ed25519Verify) : undefined
  } catch {
    return undefined
  }
}

/** libsodium's verification, or undefined when it is not available here. */
export const sodiumEd25519Verify: Ed25519Verify | undefined = load()
