import { BcsWriter } from "../bcs/index.js"
import type { TransactionSummary } from "../ledger/Ledger.js"
import type { GasEstimate, ModuleAnswer } from "../node/Node.js"
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
 * A page's bodies, made once per page: the node's page cache hands out the same summaries array
 * for every hit at a head (wallets poll the same page), and a page never changes, so a hit is a
 * lookup instead of a render. Weak keys: a page the node's cache dropped takes its bodies with it.
 */
const pageJson = new WeakMap<ReadonlyArray<TransactionSummary>, string>()
const pageBcs = new WeakMap<ReadonlyArray<TransactionSummary>, Uint8Array>()

export const summariesPageJson = (summaries: ReadonlyArray<TransactionSummary>): string => {
  let body = pageJson.get(summaries)
  if (body === undefined) {
    body = summariesJson(summaries)
    pageJson.set(summaries, body)
  }
  return body
}

export const summariesPageBcs = (summaries: ReadonlyArray<TransactionSummary>): Uint8Array => {
  let body = pageBcs.get(summaries)
  if (body === undefined) {
    body = summariesBcs(summaries)
    pageBcs.set(summaries, body)
  }
  return body
}

export const gasEstimateJson = (g: GasEstimate): string =>
  `{"deprioritized_gas_estimate":${g.low},"gas_estimate":${g.market},"prioritized_gas_estimate":${g.aggressive}}`

export const u64Bcs = (v: bigint): Uint8Array => new BcsWriter(8).u64(v).toBytes()

/**
 * Module JSON as UTF-8 bytes, cached by content: the key is the ABI text (the node keeps one string
 * per stored module version, so the lookup hashes nothing twice) and a hit also needs byte-equal
 * bytecode, since an upgrade can keep the ABI. The body is a pure function of the two, so a hit is
 * always the right answer; the node hands out fresh answer objects, so identity cannot be the key.
 * Bounded by total bytes (devnet's 190 framework modules take about 3 MB), oldest entry out first.
 */
const MODULE_CACHE_BYTES = 8 * 1024 * 1024
const moduleJsonCache = new Map<string, { readonly bytecode: Buffer; readonly body: Uint8Array }>()
let moduleJsonCacheBytes = 0

const asBuffer = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength)

/**
 * The body by answer object: the node keeps one answer per stored module version and hands it out
 * again on every read, so after the first render a read costs one lookup, with neither the ABI text
 * hashed nor the bytecode compared.
 */
const moduleJsonByAnswer = new WeakMap<ModuleAnswer, Uint8Array>()

export const moduleJson = (m: ModuleAnswer): Uint8Array => {
  let body = moduleJsonByAnswer.get(m)
  if (body === undefined) {
    body = moduleJsonByContent(m)
    moduleJsonByAnswer.set(m, body)
  }
  return body
}

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

/** View BCS: ULEB128(count) then each value's BCS bytes, not individually length-prefixed. */
export const viewBcs = (values: ReadonlyArray<Uint8Array>): Uint8Array => {
  const w = new BcsWriter(8 + values.reduce((n, v) => n + v.length, 0))
  w.uleb128(values.length)
  for (const v of values) w.fixed(v)
  return w.toBytes()
}
