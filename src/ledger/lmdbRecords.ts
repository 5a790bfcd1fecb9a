import { BcsReader, BcsWriter, withScratchWriter } from "../bcs/index.js"
import type { ContractEvent } from "../domain/ContractEvent.js"
import { readContractEvent } from "../domain/ContractEventCodec.js"
import { encodedContractEvent, encodedWriteSet, type OutputEncoding } from "../domain/outputHashes.js"
import { replayProtectorOf } from "../domain/ReplayProtector.js"
import type { ReplayProtector, Transaction } from "../domain/Transaction.js"
import { readTransaction, writeTransaction } from "../domain/TransactionCodec.js"
import { readTransactionInfo, writeTransactionInfo } from "../domain/TransactionInfoCodec.js"
import type { StateValueMetadata, WriteOp, WriteSet } from "../domain/WriteSet.js"
import { readStateValueMetadata, readWriteOp, readWriteSet } from "../domain/WriteSetCodec.js"
import type { BlockInfo, CommittedTransaction, TransactionGasFacts, TransactionSummary } from "./Ledger.js"
import type { LedgerHead } from "./LedgerBackend.js"
import { type KnownRecord, rememberRecord } from "./knownRecords.js"
import { readU64be, u64At } from "./lmdbKeys.js"

/**
 * Values of the LMDB store. Transactions, write sets and events are in their domain BCS form;
 * the small fixed records (blocks, summaries, state flags, head) have compact own encodings.
 */

/** What the pruner needs of a transaction record, readable without decoding the rest. */
export interface TransactionRecordHeader {
  readonly hash: Uint8Array
  /** A user transaction's sender and replay protector (its summary and sequence index entries). */
  readonly sender: Uint8Array | undefined
  readonly replayProtector: ReplayProtector | undefined
  /** The (address, creation number, sequence number) of each handle event (its event index entries). */
  readonly eventKeys: ReadonlyArray<{
    readonly address: Uint8Array
    readonly creationNumber: bigint
    readonly sequenceNumber: bigint
  }>
}

/**
 * A committed transaction. Header: hash ‖ has-sender u8 [‖ sender 32 ‖ replay protector tag u8
 * (0 nonce, 1 sequence number) ‖ u64] ‖ ULEB count ‖ per handle event: address 32 ‖ creation
 * number u64 ‖ sequence number u64. Then block height, block timestamp, BCS(TransactionInfo),
 * accumulator root (32), vm status, BCS(Transaction), BCS(WriteSet), BCS(vector<ContractEvent>).
 */
export const encodeTransactionRecord = (t: CommittedTransaction): Uint8Array =>
  encodeTransactionRecordWithOffsets(t).bytes

/**
 * `encodeTransactionRecord`, also telling where each write-set entry's op (BCS(WriteOp)) starts in
 * the record, in write-set order: the state index points there (a read at an older version decodes
 * just that op). `encoding`: its write set's and events' BCS when the caller has them (the commit
 * hashed them: `PreparedBlock.outputEncodings`), copied in instead of encoded again.
 */
export const encodeTransactionRecordWithOffsets = (t: CommittedTransaction, encoding?: OutputEncoding): KnownRecord =>
  // A reused writer: a record is a few KB, so a fresh one grew (and copied) several times.
  withScratchWriter(encodeRecordWith, t, encoding)

const encodeRecordWith = (w: BcsWriter, t: CommittedTransaction, encoding: OutputEncoding | undefined): KnownRecord => {
  writeHeader(w, t.hash, t.transaction, t.events)
  w.u64(t.blockHeight)
  w.u64(t.timestampUsec)
  writeTransactionInfo(w, t.info)
  w.fixed(t.accumulatorRootHash)
  w.string(t.outcome.vmStatus)
  writeTransaction(w, t.transaction)
  // BCS(WriteSet) and BCS(ContractEvent)s as the commit encoded them to hash them, when given.
  const writeSet = encoding?.writeSet ?? encodedWriteSet(t.writeSet)
  const base = w.length
  w.fixed(writeSet.bytes)
  const opOffsets: number[] = new Array(writeSet.opOffsets.length)
  for (let i = 0; i < opOffsets.length; i++) opOffsets[i] = base + writeSet.opOffsets[i]!
  w.uleb128(t.events.length)
  const eventOffsets: number[] = new Array(t.events.length)
  for (let i = 0; i < t.events.length; i++) {
    eventOffsets[i] = w.length
    w.fixed(encoding?.events[i] ?? encodedContractEvent(t.events[i]!))
  }
  // Written to the ledger with its block and dropped: from a slab (bcs/slabBytes.ts).
  return { bytes: w.toSlabBytes(), opOffsets, eventOffsets }
}

/** The record's header (see `encodeTransactionRecord`): the hash, sender, replay protector, handle event keys. */
const writeHeader = (
  w: BcsWriter,
  hash: Uint8Array,
  transaction: Transaction,
  events: ReadonlyArray<ContractEvent>
): void => {
  w.fixed(hash)
  if (transaction._tag === "UserTransaction") {
    const raw = transaction.signed.rawTransaction
    const rp = replayProtectorOf(raw)
    w.u8(1).fixed(raw.sender)
    if (rp._tag === "Nonce") w.u8(0).u64(rp.nonce)
    else w.u8(1).u64(rp.sequenceNumber)
  } else w.u8(0)
  let handleEvents = 0
  for (const e of events) if (e._tag === "V1") handleEvents++
  w.uleb128(handleEvents)
  for (const e of events)
    if (e._tag === "V1") w.fixed(e.key.accountAddress).u64(e.key.creationNumber).u64(e.sequenceNumber)
}

/**
 * A transaction's parts already in the encodings its record holds (a follower's, as received from
 * its source, checked to be exactly what this movenode encodes), with what the header needs decoded.
 */
export interface TransactionRecordParts {
  readonly hash: Uint8Array
  readonly transaction: Transaction
  readonly events: ReadonlyArray<ContractEvent>
  readonly blockHeight: bigint
  readonly timestampUsec: bigint
  /** BCS(TransactionInfo). */
  readonly info: Uint8Array
  readonly accumulatorRootHash: Uint8Array
  readonly vmStatus: string
  /** BCS(Transaction). */
  readonly transactionBytes: Uint8Array
  /** BCS(WriteSet), and where each entry's op starts in it (write-set order). */
  readonly writeSet: Uint8Array
  readonly opOffsets: ReadonlyArray<number>
  /** BCS(vector<ContractEvent>), and where each event starts in it. */
  readonly eventList: Uint8Array
  readonly eventOffsets: ReadonlyArray<number>
}

/**
 * `encodeTransactionRecordWithOffsets` of a transaction whose parts are already encoded: the same
 * bytes, copied instead of encoded again (a follower's commit: issue 24).
 */
export const transactionRecordOfParts = (p: TransactionRecordParts): KnownRecord => {
  const w = new BcsWriter(
    200 + p.info.length + p.transactionBytes.length + p.writeSet.length + p.eventList.length + p.vmStatus.length * 3
  )
  writeHeader(w, p.hash, p.transaction, p.events)
  w.u64(p.blockHeight)
  w.u64(p.timestampUsec)
  w.fixed(p.info)
  w.fixed(p.accumulatorRootHash)
  w.string(p.vmStatus)
  w.fixed(p.transactionBytes)
  const ops = w.length
  w.fixed(p.writeSet)
  const events = w.length
  w.fixed(p.eventList)
  return {
    bytes: w.toBytes(),
    opOffsets: p.opOffsets.map((o) => ops + o),
    eventOffsets: p.eventOffsets.map((o) => events + o)
  }
}

/** The event at `offset` of a transaction record (where `eventOffsets` said it starts). */
export const eventAt = (record: Uint8Array, offset: number): ContractEvent => {
  const r = new BcsReader(record)
  r.offset = offset
  return readContractEvent(r)
}

/** The write op at `offset` of a transaction record (where `opOffsets` said it starts). */
export const opAt = (record: Uint8Array, offset: number): WriteOp => {
  const r = new BcsReader(record)
  r.offset = offset
  return readWriteOp(r)
}

/** The keys of a transaction record's write set, in order, without decoding the rest of it. */
export const writeSetOfTransactionRecord = (bytes: Uint8Array): WriteSet => {
  const r = new BcsReader(bytes)
  skipToTransaction(r)
  readTransaction(r)
  return readWriteSet(r)
}

/** Reads past a record's header, height, timestamp, info, root hash and vm status: to its transaction. */
const skipToTransaction = (r: BcsReader): void => {
  readHeader(r)
  r.u64()
  r.u64()
  readTransactionInfo(r)
  r.fixed(32)
  r.string()
}

const readHeader = (r: BcsReader): TransactionRecordHeader => {
  const hash = r.fixed(32)
  let sender: Uint8Array | undefined
  let replayProtector: ReplayProtector | undefined
  if (r.u8() === 1) {
    sender = r.fixed(32)
    const tag = r.u8()
    const n = r.u64()
    replayProtector = tag === 0 ? { _tag: "Nonce", nonce: n } : { _tag: "SequenceNumber", sequenceNumber: n }
  }
  const count = r.length(48)
  const eventKeys = new Array(count)
  for (let i = 0; i < count; i++)
    eventKeys[i] = { address: r.fixed(32), creationNumber: r.u64(), sequenceNumber: r.u64() }
  return { hash, sender, replayProtector, eventKeys }
}

export const decodeTransactionRecord = (bytes: Uint8Array, version: bigint): CommittedTransaction =>
  decodeRecord(bytes, version, undefined)

/**
 * `decodeTransactionRecord`, remembering `bytes` as the transaction's record with where its ops
 * and events start (`knownRecords.ts`: written again as they are). `bytes` must not change.
 */
export const decodeTransactionRecordKeepingBytes = (bytes: Uint8Array, version: bigint): CommittedTransaction => {
  const eventOffsets: number[] = []
  const t = decodeRecord(bytes, version, eventOffsets)
  // Each entry's key is a view into `bytes`; its op starts right after it.
  const opOffsets = t.writeSet.entries.map((e) => e.keyBytes.byteOffset - bytes.byteOffset + e.keyBytes.length)
  rememberRecord(t, { bytes, opOffsets, eventOffsets })
  return t
}

const decodeRecord = (bytes: Uint8Array, version: bigint, eventOffsets: number[] | undefined): CommittedTransaction => {
  const r = new BcsReader(bytes)
  const { hash } = readHeader(r)
  const blockHeight = r.u64()
  const timestampUsec = r.u64()
  const info = readTransactionInfo(r)
  const accumulatorRootHash = r.fixed(32)
  const vmStatus = r.string()
  const transaction = readTransaction(r)
  const writeSet = readWriteSet(r)
  const n = r.length(1)
  const events = new Array(n)
  for (let i = 0; i < n; i++) {
    eventOffsets?.push(r.offset)
    events[i] = readContractEvent(r)
  }
  r.expectEnd()
  return {
    version,
    hash,
    blockHeight,
    timestampUsec,
    info,
    accumulatorRootHash,
    outcome: { gasUsed: info.gasUsed, status: info.status, vmStatus },
    transaction,
    writeSet,
    events
  }
}

/**
 * The reference's `TransactionOnChainData {version, transaction, info, events,
 * accumulator_root_hash, changes}` in BCS, copied from a record's parts as they are stored (the
 * record holds each in that encoding): what a follower's feed asks for, without building the
 * transaction's objects and encoding them again. The parts are found by reading the record (the
 * record does not store where they start).
 */
export const onChainDataOfRecord = (bytes: Uint8Array, version: bigint): Uint8Array => {
  const r = new BcsReader(bytes)
  readHeader(r)
  r.u64()
  r.u64()
  const info = r.offset
  readTransactionInfo(r)
  const root = r.offset
  r.fixed(32)
  r.string()
  const transaction = r.offset
  readTransaction(r)
  const writeSet = r.offset
  readWriteSet(r)
  const events = r.offset
  // Read to the events' end: a reused read buffer may run past the record.
  const n = r.length(1)
  for (let i = 0; i < n; i++) readContractEvent(r)
  const end = r.offset
  // Every part from the info to the end, but the vm status text (between the root and the transaction).
  const out = new Uint8Array(8 + (end - info) - (transaction - (root + 32)))
  new DataView(out.buffer).setBigUint64(0, version, true)
  let at = 8
  const copy = (from: number, to: number) => {
    out.set(bytes.subarray(from, to), at)
    at += to - from
  }
  copy(transaction, writeSet)
  copy(info, root)
  copy(events, end)
  copy(root, root + 32)
  copy(writeSet, events)
  return out
}

/**
 * A record's gas facts (`TransactionGasFacts`): its transaction decoded, its write set and events
 * not (they are most of a record's bytes and of the time to decode it). The gas estimate reads
 * every transaction of each recent block for these.
 */
export const gasFactsOfRecord = (bytes: Uint8Array): TransactionGasFacts => {
  const r = new BcsReader(bytes)
  skipToTransaction(r)
  const transaction = readTransaction(r)
  if (transaction._tag === "UserTransaction")
    return { userGasUnitPrice: transaction.signed.rawTransaction.gasUnitPrice, blockLimitReached: undefined }
  const end = transaction._tag === "BlockEpilogue" ? transaction.blockEndInfo : undefined
  return {
    userGasUnitPrice: undefined,
    blockLimitReached: end === undefined ? undefined : end.blockGasLimitReached || end.blockOutputLimitReached
  }
}

/** The hash, the user transaction's sender and replay protector and the event keys, without decoding the rest. */
export const headerOfTransactionRecord = (bytes: Uint8Array): TransactionRecordHeader =>
  readHeader(new BcsReader(bytes))

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

/** Where the state record starts in a `state_latest` value: after the version and the key's id. */
export const LATEST_RECORD_OFFSET = 16

/**
 * A state value: 0 for a deletion, 1 ‖ bytes, or 2 ‖ BCS(StateValueMetadata) ‖ bytes (a value
 * written with its slot's deposits and creation time). The `latest` table prefixes the version
 * and the key's id (8 BE each, `latest`); `state_retained` holds the record alone.
 */
export const encodeStateValue = (
  value: Uint8Array | undefined,
  latest?: { readonly version: bigint; readonly id: bigint },
  metadata?: StateValueMetadata | undefined
): Buffer => {
  const prefix = latest === undefined ? 0 : LATEST_RECORD_OFFSET
  const m = value === undefined ? 0 : metadata === undefined ? 0 : metadata._tag === "V0" ? 17 : 25
  const out = Buffer.allocUnsafe(prefix + 1 + m + (value?.length ?? 0))
  if (latest !== undefined) {
    out.writeBigUInt64BE(latest.version, 0)
    out.writeBigUInt64BE(latest.id, 8)
  }
  if (value === undefined) {
    out[prefix] = 0
    return out
  }
  if (metadata === undefined) out[prefix] = 1
  else {
    out[prefix] = 2
    if (metadata._tag === "V0") {
      out[prefix + 1] = 0
      out.writeBigUInt64LE(metadata.deposit, prefix + 2)
      out.writeBigUInt64LE(metadata.creationTimeUsecs, prefix + 10)
    } else {
      out[prefix + 1] = 1
      out.writeBigUInt64LE(metadata.slotDeposit, prefix + 2)
      out.writeBigUInt64LE(metadata.bytesDeposit, prefix + 10)
      out.writeBigUInt64LE(metadata.creationTimeUsecs, prefix + 18)
    }
  }
  out.set(value, prefix + 1 + m)
  return out
}

/**
 * Where the value starts in a state record whose flag byte is at `offset`; -1 for a deletion.
 * Throws on a flag or metadata variant this format does not know (a damaged record).
 */
export const stateValueStart = (bytes: Uint8Array, offset: number): number => {
  const flag = bytes[offset]
  if (flag === 0) return -1
  if (flag === 1) return offset + 1
  if (flag === 2) {
    const variant = bytes[offset + 1]
    if (variant === 0) return offset + 18
    if (variant === 1) return offset + 26
  }
  throw new Error(`damaged state record: flag ${flag} at ${offset}`)
}

/** The value inside a state record (a view: the record is a fresh copy); undefined for a deletion. */
export const decodeStateValue = (bytes: Uint8Array, offset: number): Uint8Array | undefined => {
  const start = stateValueStart(bytes, offset)
  return start < 0 ? undefined : bytes.subarray(start)
}

/** The metadata recorded in a state record (flag byte at `offset`); undefined for none or a deletion. */
export const decodeStateValueMetadata = (bytes: Uint8Array, offset: number): StateValueMetadata | undefined => {
  if (bytes[offset] !== 2) return undefined
  const r = new BcsReader(bytes.subarray(offset + 1))
  return readStateValueMetadata(r)
}

/**
 * The store's format: 2 added transaction infos, the accumulator, and the sequence, event and
 * long-key indexes; 3 added the state-value metadata (flag 2 in state records); 4 (issue 22) keeps
 * each state value once, in its transaction's record (LZ4-compressed, appended), indexed by key
 * number and version (`state_index`), instead of a `state_history` copy keyed by the whole state key
 * plus a `state_stale` entry per overwrite; 5 (issue 21) compresses the records with an idle
 * block's two records in the dictionary (recordDictionary.ts) and keeps a key's index entries as
 * sorted duplicates; 6 keeps the epilogue's constant hashes in that dictionary. A store of any other format is
 * refused when opened (src/ledger/README.md): it holds the blocks of a local chain, started afresh
 * in a new directory.
 */
export const LEDGER_FORMAT = 6
const READABLE_FORMATS: ReadonlyArray<number> = [6]

/** What the current format saves over the older ones, for the message refusing an older store. */
const OLDER_FORMAT_NOTE = "format 4 stores a transfer in a fifth of the space, formats 5 and 6 an idle block in less"

export const encodeHead = (h: LedgerHead): Uint8Array => {
  const w = new BcsWriter(96 + 32 * h.accumulator.frozen.length)
  w.u8(LEDGER_FORMAT)
  w.u8(h.chainId)
  w.u64(h.latestVersion)
  w.u64(h.latestHeight)
  w.u64(h.epoch)
  w.u64(h.timestampUsec)
  w.u64(h.oldestVersion)
  w.u64(h.oldestHeight)
  w.fixed(h.genesisHash)
  w.uleb128(h.accumulator.frozen.length)
  for (const root of h.accumulator.frozen) w.fixed(root)
  return w.toBytes()
}

export const decodeHead = (bytes: Uint8Array): LedgerHead => {
  const r = new BcsReader(bytes)
  const format = r.u8()
  if (!READABLE_FORMATS.includes(format))
    r.fail(
      `this store has ledger format ${format}, this movenode reads format ${READABLE_FORMATS.join(" and ")}` +
        (format < LEDGER_FORMAT ? ` (${OLDER_FORMAT_NOTE}; nothing is migrated)` : "") +
        ": open a new data directory, or start the local chain with --fresh (the genesis is imported again)"
    )
  const chainId = r.u8()
  const latestVersion = r.u64()
  const latestHeight = r.u64()
  const epoch = r.u64()
  const timestampUsec = r.u64()
  const oldestVersion = r.u64()
  const oldestHeight = r.u64()
  const genesisHash = r.fixed(32)
  const n = r.length(32)
  const frozen = new Array<Uint8Array>(n)
  for (let i = 0; i < n; i++) frozen[i] = r.fixed(32)
  r.expectEnd()
  return {
    chainId,
    latestVersion,
    latestHeight,
    epoch,
    timestampUsec,
    oldestVersion,
    oldestHeight,
    genesisHash,
    accumulator: { frozen, leaves: latestVersion + 1n }
  }
}
