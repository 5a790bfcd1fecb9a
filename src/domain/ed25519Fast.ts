/**
 * The reference's strict Ed25519 check (`verifyStrict`: ed25519-dalek's `verify_strict`) with the
 * curve equation done natively — by libsodium where its optional addon loads (`ed25519Sodium.ts`),
 * else by OpenSSL (`node:crypto`); either is ~10–15x faster than the pure-JS curve here — and a
 * memo of the signatures verified last, so a transaction verified when the mempool admits it is
 * not verified again when its block executes.
 *
 * The answer is the same as `verifyStrict`'s for every input:
 * - S must be canonical (< L): checked here first, as both do.
 * - A and R must not be of small order. For a canonical y (< p) the small-order points are exactly
 *   those whose y (sign bit cleared) is one of five values (0, 1, p - 1 and the two order-8 ones):
 *   checked here by bytes, no decompression needed.
 * - A non-canonical y (≥ p) in A or R (dalek reduces it, OpenSSL refuses or compares encodings):
 *   left to `verifyStrict`, as is anything OpenSSL will not take (a key not on the curve).
 * - With canonical encodings, libsodium's and OpenSSL's cofactorless `[S]B − [k]A`, encoded and
 *   compared with R's bytes, is dalek's point comparison, and all three hash R ‖ A ‖ M with the
 *   bytes as given. (libsodium also refuses a non-canonical A and small-order A and R itself: the
 *   checks above have already sent those elsewhere.)
 * The memo holds only exact (signature, public key, message) triples that verified, so a hit is the
 * answer a verification would give.
 */
import { verify as nodeVerify } from "node:crypto"
import { equalBytes, toHex } from "../bcs/index.js"
import { sodiumEd25519Verify } from "./ed25519Sodium.js"
import { verifyStrict } from "./ed25519Strict.js"
import { publicKeyCache } from "./publicKeyCache.js"

/** DER SubjectPublicKeyInfo prefix of an Ed25519 key (RFC 8410): the 32 key bytes follow. */
const SPKI_ED25519 = Buffer.from("302a300506032b6570032100", "hex")

/** L, the prime order, little-endian. */
const L_BYTES = Uint8Array.from(Buffer.from("edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010", "hex"))

/** The y encodings (bit 255 cleared) of the eight points of small order. */
const SMALL_ORDER_Y = new Set([
  "0000000000000000000000000000000000000000000000000000000000000000",
  "0100000000000000000000000000000000000000000000000000000000000000",
  "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
  "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"
])

/** S (the signature's last 32 bytes, little-endian) < L, compared by bytes. */
const canonicalS = (sig: Uint8Array): boolean => {
  for (let i = 31; i >= 0; i--) {
    const s = sig[32 + i]!
    const l = L_BYTES[i]!
    if (s !== l) return s < l
  }
  return false // S = L
}

/** y < p = 2^255 − 19, y being the 32 bytes little-endian with bit 255 (x's sign) cleared. */
const canonicalY = (b: Uint8Array, at: number): boolean => {
  if ((b[at + 31]! & 0x7f) !== 0x7f) return true
  for (let i = 30; i >= 1; i--) if (b[at + i] !== 0xff) return true
  return b[at]! < 0xed
}

const smallOrderY = (b: Uint8Array, at: number): boolean => {
  const y = Buffer.from(b.subarray(at, at + 32))
  y[31] = (y[31] as number) & 0x7f
  return SMALL_ORDER_Y.has(y.toString("hex"))
}

/**
 * `Ed25519Signature::try_from`: 64 bytes with a canonical S (what the `0x1::ed25519` natives check
 * before anything else).
 */
export const canonicalSignature = (sig: Uint8Array): boolean => sig.length === 64 && canonicalS(sig)

const keyOf = publicKeyCache(SPKI_ED25519, 4096)

const MEMO_SIZE = 20_000
/** Signature (hex) → the key and message it verified with; the oldest entries leave first. */
const memo = new Map<string, { readonly pk: string; readonly msg: Uint8Array }>()

const remember = (sigHex: string, pkHex: string, msg: Uint8Array) => {
  if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value as string)
  memo.set(sigHex, { pk: pkHex, msg: msg.slice() })
}

/**
 * `verifyStrictFast`'s OpenSSL step on libuv's thread pool (node:crypto's callback form), off the
 * event loop: a signature that verifies is remembered, so the synchronous `verifyStrictFast` of
 * the same triple (the mempool's validation, then the block's execution) is a memo hit. Resolves
 * whether it verified here; false also for what only the synchronous path decides (a non-canonical
 * y, a key OpenSSL will not load), so false means "not verified yet", never "invalid": callers
 * always run the synchronous check, which stays the one answer.
 */
export const preverifyStrictFast = (sig: Uint8Array, pk: Uint8Array, msg: Uint8Array): Promise<boolean> => {
  if (sig.length !== 64 || pk.length !== 32 || !canonicalS(sig)) return Promise.resolve(false)
  if (!canonicalY(pk, 0) || !canonicalY(sig, 0) || smallOrderY(pk, 0) || smallOrderY(sig, 0))
    return Promise.resolve(false)
  const sigHex = toHex(sig)
  const pkHex = toHex(pk)
  const seen = memo.get(sigHex)
  if (seen !== undefined && seen.pk === pkHex && equalBytes(seen.msg, msg)) return Promise.resolve(true)
  const key = keyOf(pk, pkHex)
  if (key === null) return Promise.resolve(false)
  // The thread pool reads the buffers later: hand it copies the caller cannot change meanwhile.
  const message = msg.slice()
  const signature = sig.slice()
  return new Promise((resolve) => {
    try {
      nodeVerify(null, message, key, signature, (error, ok) => {
        if (error === null && ok) remember(sigHex, pkHex, message)
        resolve(error === null && ok)
      })
    } catch {
      resolve(false)
    }
  })
}

/** Whether `sig` is a strict Ed25519 signature of `msg` under `pk` (as `verifyStrict`); false on malformed input. */
export const verifyStrictFast = (sig: Uint8Array, pk: Uint8Array, msg: Uint8Array): boolean =>
  verifyStrictWith(sig, pk, msg, true)

/**
 * `verifyStrictFast` without the memo, neither looked in nor added to: for a caller that keeps the
 * answer itself. The mempool's admission worker reports it in its verdict and hands validation the
 * check (`ed25519VerifiedCheck`), and nothing on its thread asks the memo again, so remembering each
 * signature there (its hex, its key's, a copy of the message: ~3 µs, and 20,000 entries turning
 * over in the old generation) was work for nothing (session 14).
 */
export const verifyStrictFastUnremembered = (sig: Uint8Array, pk: Uint8Array, msg: Uint8Array): boolean =>
  verifyStrictWith(sig, pk, msg, false)

/**
 * The curve equation for canonical, not-small-order encodings: libsodium's when it loads
 * (`ed25519Sodium.ts`, ~38 µs), else OpenSSL's (~62 µs), whose refusal to load a key (not on the
 * curve) leaves the answer to the reference implementation.
 */
const equation = (sig: Uint8Array, pk: Uint8Array, msg: Uint8Array, pkHex: string): boolean => {
  const sodium = sodiumEd25519Verify()
  if (sodium !== undefined) return sodium(sig, msg, pk)
  const key = keyOf(pk, pkHex)
  if (key === null) return verifyStrict(sig, pk, msg)
  try {
    return nodeVerify(null, msg, key, sig)
  } catch {
    return verifyStrict(sig, pk, msg)
  }
}

/** Which implementation does the curve equation here: what benchmarks and tests report. */
export const ed25519Backend = (): "libsodium" | "openssl" =>
  sodiumEd25519Verify() !== undefined ? "libsodium" : "openssl"

const verifyStrictWith = (sig: Uint8Array, pk: Uint8Array, msg: Uint8Array, memoized: boolean): boolean => {
  if (sig.length !== 64 || pk.length !== 32) return false
  if (!canonicalS(sig)) return false
  if (!canonicalY(pk, 0) || !canonicalY(sig, 0)) return verifyStrict(sig, pk, msg)
  if (smallOrderY(pk, 0) || smallOrderY(sig, 0)) return false
  // OpenSSL's key cache is by the key's hex; libsodium takes the bytes.
  const pkHex = memoized || sodiumEd25519Verify() === undefined ? toHex(pk) : ""
  if (!memoized) return equation(sig, pk, msg, pkHex)
  const sigHex = toHex(sig)
  const seen = memo.get(sigHex)
  if (seen !== undefined && seen.pk === pkHex && equalBytes(seen.msg, msg)) return true
  const ok = equation(sig, pk, msg, pkHex)
  if (ok) remember(sigHex, pkHex, msg)
  return ok
}
