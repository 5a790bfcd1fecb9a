import { BcsReader, BcsWriter } from "../bcs/index.js"
import { readContractEvent, writeContractEvent } from "../domain/ContractEventCodec.js"
import type { ReplayProtector } from "../domain/Transaction.js"
import { readTransaction, writeTransaction } from "../domain/TransactionCodec.js"
import { readWriteSet, writeWriteSet } from "../domain/WriteSetCodec.js"
import type { BlockInfo, CommittedTransaction, TransactionSummary } from "./Ledger.js"
import type { LedgerHead } from "./LedgerBackend.js"
import { readU64be, u64At } from "./lmdbKeys.js"

/**
 * Values of the LMDB store. Transactions, write sets and events are in their domain BCS form;
 * the small fixed records (blocks, summaries, state flags, head) have compact own encodings.
 */

/** A committed transaction: hash, sender flag (‖ sender) and outcome, then BCS(Transaction), BCS(WriteSet), BCS(vector<ContractEvent>). */
export const encodeTransactionRecord = (t: CommittedTransaction): Uint8Array => {
  const w = new BcsWriter(512)
  w.fixed(t.hash)
  const sender = t.transaction._tag === "UserTransaction" ? t.transaction.signed.rawTransaction.sender : undefined
  w.u8(sender === undefined ? 0 : 1)
  if (sender !== undefined) w.fixed(sender)
  w.u64(t.blockHeight)
  w.u64(t.outcome.gasUsed)
  w.bool(t.outcome.success)
  w.string(t.outcome.vmStatus)
  writeTransaction(w, t.transaction)
  writeWriteSet(w, t.writeSet)
  w.uleb128(t.events.length)
  for (const e of t.events) writeContractEvent(w, e)
  return w.toBytes()
}

export const decodeTransactionRecord = (bytes: Uint8Array, version: bigint): CommittedTransaction => {
  const r = new BcsReader(bytes)
  const hash = r.fixed(32)
  if (r.u8() === 1) r.fixed(32) // the sender, also inside the transaction
  const blockHeight = r.u64()
  const gasUsed = r.u64()
  const success = r.bool()
  const vmStatus = r.string()
  const transaction = readTransaction(r)
  const writeSet = readWriteSet(r)
  const n = r.length(1)
  const events = new Array(n)
  for (let i = 0; i < n; i++) events[i] = readContractEvent(r)
  r.expectEnd()
  return {
    version,
    hash,
    blockHeight,
    outcome: { gasUsed, success, vmStatus },
    transaction,
    writeSet,
    events
  }
}

/** The hash and the user transaction's sender, without decoding the rest (what the pruner needs). */
export const headerOfTransactionRecord = (
  bytes: Uint8Array
): { readonly hash: Uint8Array; readonly sender: Uint8Array | undefined } => ({
  hash: bytes.slice(0, 32),
  sender: bytes[32] === 1 ? bytes.slice(33, 65) : undefined
})

/** firstVersion ‖ lastVersion ‖ timestampUsec ‖ epoch, big-endian u64s; the height is the key. */
export const encodeBlock = (b: BlockInfo): Buffer => {
  const out = Buffer.allocUnsafe(32)
  out.writeBigUInt64BE(b.firstVersion, 0)
  out.writeBigUInt64BE(b.lastVersion, 8)
  out.writeBigUInt64BE(b.timestampUsec, 16)
  out.writeBigUInt64BE(b.epoch, 24)
  return out
}

export const decodeBlock = (height: bigint, bytes: Uint8Array): BlockInfo => ({
  height,
  firstVersion: readU64be(bytes, 0),
  lastVersion: readU64be(bytes, 8),
  timestampUsec: readU64be(bytes, 16),
  epoch: readU64be(bytes, 24)
})

/** hash(32) ‖ tag (0 Nonce, 1 SequenceNumber, as the reference's enum) ‖ u64 big-endian. */
export const encodeSummaryValue = (s: TransactionSummary): Buffer => {
  const out = Buffer.allocUnsafe(41)
  out.set(s.hash, 0)
  const rp = s.replayProtector
  out[32] = rp._tag === "Nonce" ? 0 : 1
  out.writeBigUInt64BE(rp._tag === "Nonce" ? rp.nonce : rp.sequenceNumber, 33)
  return out
}

export const decodeSummary = (key: Uint8Array, value: Uint8Array): TransactionSummary => {
  const n = readU64be(value, 33)
  const replayProtector: ReplayProtector =
    value[32] === 0 ? { _tag: "Nonce", nonce: n } : { _tag: "SequenceNumber", sequenceNumber: n }
  return {
    sender: key.slice(0, 32),
    version: readU64be(key, 32),
    hash: value.slice(0, 32),
    replayProtector
  }
}

/** A summary record's value half; the key gives the sender and the version. */
export interface SummaryValue {
  readonly hash: Uint8Array
  readonly replayProtector: ReplayProtector
}

/**
 * `encodeSummaryValue`'s bytes back, read in place: lmdb hands this decoder its shared read buffer
 * (valid until the next read), so nothing but the hash copy and the record itself is allocated.
 */
export const decodeSummaryValue = (bytes: Uint8Array): SummaryValue => {
  const hash = new Uint8Array(32)
  for (let i = 0; i < 32; i++) hash[i] = bytes[i] as number
  const n = u64At(bytes, 33)
  return {
    hash,
    replayProtector: bytes[32] === 0 ? { _tag: "Nonce", nonce: n } : { _tag: "SequenceNumber", sequenceNumber: n }
  }
}

/** A state value: 1 ‖ bytes, or 0 for a deletion; the `latest` table prefixes the version (8 BE). */
export const encodeStateValue = (value: Uint8Array | undefined, version?: bigint): Buffer => {
  const prefix = version === undefined ? 0 : 8
  const out = Buffer.allocUnsafe(prefix + 1 + (value?.length ?? 0))
  if (version !== undefined) out.writeBigUInt64BE(version, 0)
  out[prefix] = value === undefined ? 0 : 1
  if (value !== undefined) out.set(value, prefix + 1)
  return out
}

/** The value inside a state record (a view: the record is a fresh copy); undefined for a deletion. */
export const decodeStateValue = (bytes: Uint8Array, offset: number): Uint8Array | undefined =>
  bytes[offset] === 0 ? undefined : bytes.subarray(offset + 1)

export const encodeHead = (h: LedgerHead): Uint8Array => {
  const w = new BcsWriter(96)
  w.u8(1) // format version of the head record
  w.u8(h.chainId)
  w.u64(h.latestVersion)
  w.u64(h.latestHeight)
  w.u64(h.epoch)
  w.u64(h.timestampUsec)
  w.u64(h.oldestVersion)
  w.u64(h.oldestHeight)
  w.fixed(h.genesisHash)
  return w.toBytes()
}

export const decodeHead = (bytes: Uint8Array): LedgerHead => {
  const r = new BcsReader(bytes)
  const format = r.u8()
  if (format !== 1) r.fail(`unknown ledger head format ${format}`)
  const head: LedgerHead = {
    chainId: r.u8(),
    latestVersion: r.u64(),
    latestHeight: r.u64(),
    epoch: r.u64(),
    timestampUsec: r.u64(),
    oldestVersion: r.u64(),
    oldestHeight: r.u64(),
    genesisHash: r.fixed(32)
  }
  r.expectEnd()
  return head
}
