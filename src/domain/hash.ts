/**
 * SHA3-256 and the reference's domain-separated hashing (`CryptoHasher`): the hash of a value of
 * type `T` is sha3_256(sha3_256("APTOS::" + T) ‖ BCS(value)). The 32-byte prefixes are computed
 * once per type name.
 */
import { sha3_256 } from "@noble/hashes/sha3.js"
import { BcsWriter } from "../bcs/index.js"
import type { Transaction } from "./Transaction.js"
import { JS_MAX_INPUT, littleEndian, sha3Js } from "./sha3Js.js"
import { writeTransaction } from "./TransactionCodec.js"

type Hasher = { update(b: Uint8Array): Hasher; digest(): Uint8Array }

/**
 * `node:crypto`'s SHA3-256 when the host has it (≈ 3× faster than @noble/hashes for short inputs),
 * else noble. Looked up once through `process.getBuiltinModule` (Node ≥ 20.16), so this module
 * stays importable where `node:crypto` is absent.
 */
const nativeCreate = ((): (() => Hasher) | undefined => {
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
    const crypto = proc?.getBuiltinModule?.("node:crypto") as
      | { createHash(alg: string): { update(b: Uint8Array): unknown; digest(): Uint8Array } }
      | undefined
    if (crypto === undefined) return undefined
    crypto.createHash("sha3-256") // throws when OpenSSL lacks it
    return () => crypto.createHash("sha3-256") as unknown as Hasher
  } catch {
    return undefined
  }
})()

const toBytes = (d: Uint8Array): Uint8Array =>
  // A Buffer is a Uint8Array; callers compare with plain arrays, so hand back a plain view.
  d.constructor === Uint8Array ? d : new Uint8Array(d.buffer, d.byteOffset, d.byteLength)

const sha3Parts = (parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  if (littleEndian) {
    let n = 0
    for (const p of parts) n += p.length
    if (n <= JS_MAX_INPUT || nativeCreate === undefined) return sha3Js(parts)
  }
  if (nativeCreate !== undefined) {
    const h = nativeCreate()
    for (const p of parts) h.update(p)
    return toBytes(h.digest())
  }
  const h = sha3_256.create()
  for (const p of parts) h.update(p)
  return h.digest()
}

/** SHA3-256 of `bytes` (in JS when short, else node:crypto when available, else @noble/hashes). */
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
