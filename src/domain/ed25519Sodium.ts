/**
 * libsodium's Ed25519 verification, through `sodium-native` (an optional dependency: one prebuilt
 * addon per platform in its package, nothing compiled at install), when it loads here.
 *
 * Why: the curve equation is most of what admitting a transfer costs (issue 22): OpenSSL 3.0's
 * Ed25519 (what `node:crypto` calls) takes ~62 µs a verification on the 2-core machines this
 * project is measured on (`openssl speed ed25519`), libsodium's ~38 µs (the same calls timed in one
 * script, docs/benchmarks.md "Session 43"). Where the addon does not load (a platform without a
 * prebuilt build, an install without optional dependencies), `undefined`: callers use OpenSSL,
 * with the same answers.
 *
 * Loaded on the first verification, not at import: every thread with a VM imports this (the
 * natives verify signatures), few of them verify any. The platform's prebuilt addon is opened
 * directly (~1.6 ms); the package's own loader, which resolves it through several modules, took
 * ~8 ms a thread and is the fallback for layouts other than `prebuilds/<platform>-<arch>`.
 *
 * What libsodium checks (`crypto_sign_ed25519_verify_detached`): S canonical, R and A not of small
 * order, A canonical and on the curve, then the cofactorless `[S]B − [k]A` encoded and compared with
 * R's bytes, k = SHA-512(R ‖ A ‖ M) — for the canonical, not-small-order encodings callers hand it,
 * ed25519-dalek's `verify_strict` (`ed25519Fast.ts` says why, and where the other cases go).
 */
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

/** Whether `signature` (64 bytes) is valid for `message` under `publicKey` (32 bytes). */
export type Ed25519Verify = (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array) => boolean

const verifyOf = (addon: unknown): Ed25519Verify | undefined => {
  const verify = (addon as { crypto_sign_verify_detached?: unknown } | null)?.crypto_sign_verify_detached
  return typeof verify === "function" ? (verify as Ed25519Verify) : undefined
}

const load = (): Ed25519Verify | undefined => {
  if (process.env.MOVENODE_ED25519 === "openssl") return undefined
  const require = createRequire(import.meta.url)
  try {
    const dir = dirname(require.resolve("sodium-native/package.json"))
    const direct = verifyOf(
      require(join(dir, "prebuilds", `${process.platform}-${process.arch}`, "sodium-native.node"))
    )
    if (direct !== undefined) return direct
  } catch {
    // Not installed, or another layout: the package's loader decides.
  }
  try {
    return verifyOf(require("sodium-native"))
  } catch {
    return undefined
  }
}

let loaded: { readonly verify: Ed25519Verify | undefined } | undefined

/** libsodium's verification, or undefined when it is not available here (loaded on first use). */
export const sodiumEd25519Verify = (): Ed25519Verify | undefined => {
  if (loaded === undefined) loaded = { verify: load() }
  return loaded.verify
}
