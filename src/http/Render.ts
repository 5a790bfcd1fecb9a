import { BcsWriter } from "../bcs/index.js"
import type { TransactionSummary } from "../ledger/Ledger.js"
import type { GasEstimate } from "../domain/gasEstimate.js"
import type { ModuleAnswer } from "../node/Modules.js"
import { summariesJson } from "./renderSummaries.js"

/**
 * Response bodies written directly as text: numbers that must keep every digit (u64 balances, gas
 * estimates) are written from their decimal form, and hot bodies avoid an intermediate object.
 */

/** Lowercase hex through Node's native encoder (faster than the JS loop of `bcs/hex`). */
const hex = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("hex")

/** The page is ASCII, so `summariesJsonBytes` encodes it as latin1 (one pass, no UTF-8 length scan). */
export const summariesJsonBytes = (summaries: ReadonlyArray<TransactionSummary>): Uint8Array =>
  Buffer.from(summariesJson(summaries), "latin1")

export { summariesJson }

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

/**
 * `render` kept per argument object, weakly: for bodies of objects the node hands out again,
 * unchanged, on every hit (a cached summaries page, a cached module answer). After the first render
 * a hit is one lookup; an object the node's cache dropped takes its body with it.
 */
const keptPerObject = <K extends object, V>(render: (key: K) => V): ((key: K) => V) => {
  const kept = new WeakMap<K, V>()
  return (key) => {
    let value = kept.get(key)
    if (value === undefined) {
      value = render(key)
      kept.set(key, value)
    }
    return value
  }
}

/** A page's bodies, made once per page (wallets poll the same page; a page never changes). */
export const summariesPageJson = keptPerObject(summariesJson)
export const summariesPageBcs = keptPerObject(summariesBcs)

export const gasEstimateJson = (g: GasEstimate): string =>
  `{"deprioritized_gas_estimate":${g.low},"gas_estimate":${g.market},"prioritized_gas_estimate":${g.aggressive}}`

export const u64Bcs = (v: bigint): Uint8Array => new BcsWriter(8).u64(v).toBytes()

/**
 * Module JSON as UTF-8 bytes, cached by content: the key is the ABI text (the node keeps one string
 * per stored module version, so the lookup hashes nothing twice) and a hit also needs byte-equal
 * bytecode, since an upgrade can keep the ABI. The body is a pure function of the two, so a hit is
 * always the right answer. `moduleJson` looks an answer object up first; this catches what that
 * misses: the same module as a new object (read again after the node's answer cache dropped it).
 * Bounded by total bytes (devnet's 190 framework modules take about 3 MB), oldest entry out first.
 */
const MODULE_CACHE_BYTES = 8 * 1024 * 1024
const moduleJsonCache = new Map<string, { readonly bytecode: Buffer; readonly body: Uint8Array }>()
let moduleJsonCacheBytes = 0

const asBuffer = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength)

const moduleJsonByContent = (m: ModuleAnswer): Uint8Array => {
  const hit = moduleJsonCache.get(m.abiJson)
  if (hit?.bytecode.equals(m.bytecode)) return hit.body
  const body = Buffer.from(`{"bytecode":"0x${hex(m.bytecode)}","abi":${m.abiJson}}`, "utf8")
  const size = body.length + m.bytecode.length
  if (size > MODULE_CACHE_BYTES) return body
  if (hit !== undefined) {
    moduleJsonCache.delete(m.abiJson)
    moduleJsonCacheBytes -= hit.body.length + hit.bytecode.length
  }
  for (const [key, entry] of moduleJsonCache) {
    if (moduleJsonCacheBytes + size <= MODULE_CACHE_BYTES) break
    moduleJsonCache.delete(key)
    moduleJsonCacheBytes -= entry.body.length + entry.bytecode.length
  }
  // A copy: the answer's bytes may be a view over a buffer that is reused.
  moduleJsonCache.set(m.abiJson, { bytecode: Buffer.from(asBuffer(m.bytecode)), body })
  moduleJsonCacheBytes += size
  return body
}

/**
 * The node keeps one answer per stored module version and hands it out on every read, so after the
 * first render a read is one lookup, with neither the ABI text hashed nor the bytecode compared.
 */
export const moduleJson = keptPerObject(moduleJsonByContent)

/** View BCS: ULEB128(count) then each value's BCS bytes, not individually length-prefixed. */
export const viewBcs = (values: ReadonlyArray<Uint8Array>): Uint8Array => {
  const w = new BcsWriter(8 + values.reduce((n, v) => n + v.length, 0))
  w.uleb128(values.length)
  for (const v of values) w.fixed(v)
  return w.toBytes()
}
