import { BcsWriter } from "../bcs/index.js"
import type { TransactionSummary } from "../ledger/Ledger.js"
import type { GasEstimate, ModuleAnswer } from "../node/Node.js"

/**
 * Response bodies written directly as text: numbers that must keep every digit (u64 balances, gas
 * estimates) are written from their decimal form, and hot bodies avoid an intermediate object.
 */

/** Lowercase hex through Node's native encoder (the JS loop in `bcs/hex` is ~10x slower here). */
const hex = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("hex")

/** The API's short address form (`0x1`, `0xa550c18`): leading zeros stripped, "0x0" for zero. */
const shortAddress = (a: Uint8Array): string => {
  let i = 0
  while (i < a.length && a[i] === 0) i++
  if (i === a.length) return "0x0"
  const h = hex(a.subarray(i))
  return h.charCodeAt(0) === 48 ? "0x" + h.slice(1) : "0x" + h
}

const summaryJson = (s: TransactionSummary): string => {
  const rp =
    s.replayProtector._tag === "SequenceNumber"
      ? `{"type":"sequence_number","sequence_number":"${s.replayProtector.sequenceNumber}"}`
      : `{"type":"nonce","nonce":"${s.replayProtector.nonce}"}`
  return `{"sender":"${shortAddress(s.sender)}","version":"${s.version}","transaction_hash":"0x${hex(s.hash)}","replay_protector":${rp}}`
}

export const summariesJson = (summaries: ReadonlyArray<TransactionSummary>): string => {
  let out = "["
  for (let i = 0; i < summaries.length; i++) out += (i === 0 ? "" : ",") + summaryJson(summaries[i]!)
  return out + "]"
}

/**
 * `bcs(Vec<IndexedTransactionSummary>)`: per item variant 0 (V1), sender, version, hash
 * (ULEB 32 + bytes), replay protector (`Nonce = 0`, `SequenceNumber = 1`, then u64).
 */
export const summariesBcs = (summaries: ReadonlyArray<TransactionSummary>): Uint8Array => {
  const w = new BcsWriter(16 + summaries.length * 90)
  w.uleb128(summaries.length)
  for (const s of summaries) {
    w.uleb128(0).fixed(s.sender).u64(s.version).bytesWithLength(s.hash)
    if (s.replayProtector._tag === "Nonce") w.uleb128(0).u64(s.replayProtector.nonce)
    else w.uleb128(1).u64(s.replayProtector.sequenceNumber)
  }
  return w.toBytes()
}

export const gasEstimateJson = (g: GasEstimate): string =>
  `{"deprioritized_gas_estimate":${g.deprioritized},"gas_estimate":${g.regular},"prioritized_gas_estimate":${g.prioritized}}`

export const u64Bcs = (v: bigint): Uint8Array => new BcsWriter(8).u64(v).toBytes()

/**
 * Module JSON as UTF-8 bytes, kept per answer object: a node that caches its answers (per module
 * and version) pays the hex and the encoding once.
 */
const moduleJsonCache = new WeakMap<ModuleAnswer, Uint8Array>()
export const moduleJson = (m: ModuleAnswer): Uint8Array => {
  let s = moduleJsonCache.get(m)
  if (s === undefined) {
    s = Buffer.from(`{"bytecode":"0x${hex(m.bytecode)}","abi":${m.abiJson}}`, "utf8")
    moduleJsonCache.set(m, s)
  }
  return s
}

/** View BCS: ULEB128(count) then each value's BCS bytes, not individually length-prefixed. */
export const viewBcs = (values: ReadonlyArray<Uint8Array>): Uint8Array => {
  const w = new BcsWriter(8 + values.reduce((n, v) => n + v.length, 0))
  w.uleb128(values.length)
  for (const v of values) w.fixed(v)
  return w.toBytes()
}
