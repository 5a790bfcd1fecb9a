/**
 * SHA3-256 and the reference's domain-separated hashing (`CryptoHasher`): the hash of a value of
 * type `T` is sha3_256(sha3_256("APTOS::" + T) ‖ BCS(value)). The 32-byte prefixes are computed
 * once per type name. Inputs up to 1 KB are hashed in WebAssembly (`sha3Wasm.ts`), longer ones by
 * node:crypto; without either (a host with neither), in JS.
 */
import { sha3_256 } from "@noble/hashes/sha3.js"
import { BcsWriter } from "../bcs/index.js"
import { JS_MAX_INPUT, littleEndian, sha3Js } from "./sha3Js.js"
import { sha3Wasm, WASM_MAX_INPUT } from "./sha3Wasm.js"
import type { Transaction } from "./Transaction.js"
import { writeTransaction } from "./TransactionCodec.js"

type Hasher = { update(b: Uint8Array): Hasher; digest(): Uint8Array }

type NodeCrypto = {
  createHash(alg: string): { update(b: Uint8Array): unknown; digest(): Uint8Array }
  hash?: (alg: string, data: Uint8Array, encoding: "buffer") => Uint8Array
}

/** `node:crypto`, looked up once through `process.getBuiltinModule` (Node ≥ 20.16), so this module stays importable where it is absent. */
const nodeCrypto = ((): NodeCrypto | undefined => {
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
    return proc?.getBuiltinModule?.("node:crypto") as NodeCrypto | undefined
  } catch {
    return undefined
  }
})()

/**
 * `node:crypto`'s one-shot `crypto.hash("sha3-256", …)` (Node ≥ 20.12): no hash object per call,
 * cheaper than `createHash` at every size and than the JS Keccak (session 8, docs/benchmarks.md,
 * µs per call: 96 B 0.95 against 1.76 for the JS Keccak and 2.26 for `createHash`; 300 B 1.37 /
 * 4.64 / 2.17; 700 B 1.97 / 9.21 / 2.75). Inputs up to `WASM_MAX_INPUT` go to `sha3Wasm` first
 * (96 B 0.40 µs, and no native buffer per digest: sha3Wasm.ts).
 */
const nativeOneShot = ((): ((data: Uint8Array) => Uint8Array) | undefined => {
  const hash = nodeCrypto?.hash
  if (hash === undefined) return undefined
  try {
    hash("sha3-256", new Uint8Array(0), "buffer") // throws when OpenSSL lacks it
    return (data) => hash("sha3-256", data, "buffer")
  } catch {
    return undefined
  }
})()

/** `node:crypto`'s SHA3-256 hash object when the host has it (before Node 20.12: no one-shot form). */
const nativeCreate = ((): (() => Hasher) | undefined => {
  try {
    if (nodeCrypto === undefined) return undefined
    nodeCrypto.createHash("sha3-256") // throws when OpenSSL lacks it
    return () => nodeCrypto.createHash("sha3-256") as unknown as Hasher
  } catch {
    return undefined
  }
})()

const toBytes = (d: Uint8Array): Uint8Array =>
  // A Buffer is a Uint8Array; callers compare with plain arrays, so hand back a plain view.
  d.constructor === Uint8Array ? d : new Uint8Array(d.buffer, d.byteOffset, d.byteLength)

/** Where the one-shot hash's parts are joined (synchronous: nothing yields while it is in use). */
let scratch = new Uint8Array(4096)
/**
 * Views of `scratch`'s first n bytes, by n up to `VIEW_SIZES` (an accumulator node is 96 bytes,
 * hashed ~20 times per committed transaction): one view per size instead of a subarray per hash.
 */
const VIEW_SIZES = 512
let views: Array<Uint8Array | undefined> = []
const scratchView = (n: number): Uint8Array => {
  if (n > VIEW_SIZES) return scratch.subarray(0, n)
  return (views[n] ??= scratch.subarray(0, n))
}

const sha3Parts = (parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  let n = 0
  for (const p of parts) n += p.length
  // Short inputs (nearly every hash a transaction costs) in WebAssembly: no native buffer per digest.
  if (n <= WASM_MAX_INPUT && sha3Wasm !== undefined) return sha3Wasm(parts, n)
  if (nativeOneShot !== undefined) {
    if (parts.length === 1) return toBytes(nativeOneShot(parts[0]!))
    if (n > scratch.length) {
      scratch = new Uint8Array(Math.max(n, scratch.length * 2))
      views = []
    }
    let at = 0
    for (const p of parts) {
      scratch.set(p, at)
      at += p.length
    }
    return toBytes(nativeOneShot(scratchView(n)))
  }
  if (littleEndian && (n <= JS_MAX_INPUT || nativeCreate === undefined)) return sha3Js(parts)
  if (nativeCreate !== undefined) {
    const h = nativeCreate()
    for (const p of parts) h.update(p)
    return toBytes(h.digest())
  }
  const h = sha3_256.create()
  for (const p of parts) h.update(p)
  return h.digest()
}

/** SHA3-256 of `bytes` (WebAssembly up to 1 KB, node:crypto's one-shot hash beyond; else JS when short, node:crypto or @noble/hashes). */
export const sha3 = (bytes: Uint8Array): Uint8Array => sha3Parts([bytes])

/** SHA3-256 of the concatenation of `parts`, without building it. */
export const sha3Concat = (...parts: ReadonlyArray<Uint8Array>): Uint8Array => sha3Parts(parts)

const textEncoder = new TextEncoder()
const prefixes = new Map<string, Uint8Array>()

/** sha3_256("APTOS::" + typeName): the salt the reference puts before a type's BCS when hashing. */
export const hashPrefix = (typeName: string): Uint8Array => {
  let p = prefixes.get(typeName)
  if (p === undefined) {
    p = sha3(textEncoder.encode("APTOS::" + typeName))
    prefixes.set(typeName, p)
  }
  return p
}

/** sha3_256(prefix(typeName) ‖ bcs), without concatenating into a new buffer. */
export const hashWithPrefix = (typeName: string, bcs: Uint8Array): Uint8Array => sha3Concat(hashPrefix(typeName), bcs)

/** A ledger transaction's hash, as the API reports it (`Transaction` is the CryptoHasher type). */
export const transactionHash = (txn: Transaction): Uint8Array => {
  const w = new BcsWriter(512)
  writeTransaction(w, txn)
  return hashWithPrefix("Transaction", w.toBytes())
}

/** The same hash from a transaction's BCS bytes as stored. */
export const transactionHashOfBytes = (bcs: Uint8Array): Uint8Array => hashWithPrefix("Transaction", bcs)

/** `Transaction::UserTransaction`'s variant index: a user transaction's BCS is it, then its signed transaction's. */
const USER_TRANSACTION_VARIANT = Uint8Array.of(0)

/**
 * The hash of the user transaction whose signed transaction's BCS is `signedBcs` (what the API
 * reports for a submission), hashed in parts rather than copied behind its variant byte first.
 */
export const userTransactionHashOfSigned = (signedBcs: Uint8Array): Uint8Array =>
  sha3Concat(hashPrefix("Transaction"), USER_TRANSACTION_VARIANT, signedBcs)
