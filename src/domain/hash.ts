/**
 * SHA3-256 and the reference's domain-separated hashing (`CryptoHasher`): the hash of a value of
 * type `T` is sha3_256(sha3_256("APTOS::" + T) ‖ BCS(value)). The 32-byte prefixes are computed
 * once per type name.
 */
import { sha3_256 } from "@noble/hashes/sha3.js"
import { BcsWriter } from "../bcs/index.js"
import type { Transaction } from "./Transaction.js"
import { writeTransaction } from "./TransactionCodec.js"

export const sha3 = (bytes: Uint8Array): Uint8Array => sha3_256(bytes)

const textEncoder = new TextEncoder()
const prefixes = new Map<string, Uint8Array>()

/** sha3_256("APTOS::" + typeName): the salt the reference puts before a type's BCS when hashing. */
export const hashPrefix = (typeName: string): Uint8Array => {
  let p = prefixes.get(typeName)
  if (p === undefined) {
    p = sha3_256(textEncoder.encode("APTOS::" + typeName))
    prefixes.set(typeName, p)
  }
  return p
}

/** sha3_256(prefix(typeName) ‖ bcs), without concatenating into a new buffer. */
export const hashWithPrefix = (typeName: string, bcs: Uint8Array): Uint8Array =>
  sha3_256.create().update(hashPrefix(typeName)).update(bcs).digest()

/** A ledger transaction's hash, as the API reports it (`Transaction` is the CryptoHasher type). */
export const transactionHash = (txn: Transaction): Uint8Array => {
  const w = new BcsWriter(512)
  writeTransaction(w, txn)
  return hashWithPrefix("Transaction", w.toBytes())
}

/** The same hash from a transaction's BCS bytes as stored. */
export const transactionHashOfBytes = (bcs: Uint8Array): Uint8Array => hashWithPrefix("Transaction", bcs)
