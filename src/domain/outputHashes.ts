import { type BcsWriter, withScratchWriter } from "../bcs/index.js"
import type { ContractEvent } from "./ContractEvent.js"
import { writeContractEvent } from "./ContractEventCodec.js"
import { hashWithPrefix } from "./hash.js"
import { accumulatorRootOf } from "./MerkleAccumulator.js"
import type { WriteSet } from "./WriteSet.js"
import { writeWriteOp } from "./WriteSetCodec.js"

/**
 * The hashes `TransactionInfo` records about a transaction's output, as the reference computes
 * them (`TransactionOutput::ensure_match_transaction_info`).
 */

/** BCS(WriteSet) and where each entry's op (BCS(WriteOp)) starts in those bytes, in entry order. */
export interface EncodedWriteSet {
  readonly bytes: Uint8Array
  readonly opOffsets: ReadonlyArray<number>
}

/**
 * A transaction output's encodings, as its hashes were computed over them: the ledger's record
 * stores the same bytes (`OutputHashes.encoding`, carried with the transaction to the commit), so
 * nothing is encoded twice (issue 22: the second encoding was a few % of a commit). They were
 * memoised per write set and event object in `WeakMap`s until session 60: an entry per event and
 * write set in a long-lived weak map cost the event loop a write barrier a set and the scavenges
 * ephemeron work (~1 % of its samples at full load; docs/benchmarks.md, "Session 60").
 */
export interface OutputEncoding {
  readonly writeSet: EncodedWriteSet
  /** BCS(ContractEvent) of each event, in order. */
  readonly events: ReadonlyArray<Uint8Array>
}

/** BCS(WriteSet) with its ops' offsets. */
export const encodedWriteSet = (ws: WriteSet): EncodedWriteSet => withScratchWriter(encodeWriteSetWith, ws)

/** As writeWriteSet, noting where each op starts (a function made once: see `withScratchWriter`). */
const encodeWriteSetWith = (w: BcsWriter, ws: WriteSet): EncodedWriteSet => {
  const opOffsets: number[] = new Array(ws.entries.length)
  w.u8(0)
  w.uleb128(ws.entries.length)
  for (let i = 0; i < ws.entries.length; i++) {
    const entry = ws.entries[i]!
    w.fixed(entry.keyBytes)
    opOffsets[i] = w.length
    writeWriteOp(w, entry.op)
  }
  // A block output (hashed, written in the ledger's record, then dropped with the block): from a slab.
  return { bytes: w.toSlabBytes(), opOffsets }
}

/** BCS(ContractEvent). */
export const encodedContractEvent = (event: ContractEvent): Uint8Array => withScratchWriter(encodeEventWith, event)

const encodeEventWith = (w: BcsWriter, event: ContractEvent): Uint8Array => {
  writeContractEvent(w, event)
  // As a write set's: a block output, from a slab.
  return w.toSlabBytes()
}

/** CryptoHash of a write set over its BCS: sha3(prefix("WriteSet") ‖ BCS(WriteSet)). */
const writeSetHashOf = (encoded: EncodedWriteSet): Uint8Array => hashWithPrefix("WriteSet", encoded.bytes)

/** CryptoHash of one event over its BCS: sha3(prefix("ContractEvent") ‖ BCS(ContractEvent)). */
const contractEventHashOf = (bcs: Uint8Array): Uint8Array => hashWithPrefix("ContractEvent", bcs)

/** Root of the event accumulator over the events' BCS; the placeholder hash when there are none. */
const eventRootOf = (encoded: ReadonlyArray<Uint8Array>): Uint8Array =>
  accumulatorRootOf("EventAccumulator", encoded.map(contractEventHashOf))

/** CryptoHash of a write set; entries in BCS key order. */
export const writeSetHash = (ws: WriteSet): Uint8Array => writeSetHashOf(encodedWriteSet(ws))

/** CryptoHash of one event. */
export const contractEventHash = (e: ContractEvent): Uint8Array => contractEventHashOf(encodedContractEvent(e))

/** Root of the event accumulator over the events' hashes; the placeholder hash when there are none. */
export const eventRootHash = (events: ReadonlyArray<ContractEvent>): Uint8Array =>
  eventRootOf(events.map(encodedContractEvent))

/** The two hashes of a transaction's output its `TransactionInfo` records, and the bytes they cover. */
export interface OutputHashes {
  readonly eventRootHash: Uint8Array
  readonly stateChangeHash: Uint8Array
  readonly encoding: OutputEncoding
}

/** `writeSetHash` and `eventRootHash`, each over one encoding that is then kept (`encoding`). */
export const outputHashes = (writeSet: WriteSet, events: ReadonlyArray<ContractEvent>): OutputHashes => {
  const encoding: OutputEncoding = { writeSet: encodedWriteSet(writeSet), events: events.map(encodedContractEvent) }
  return { eventRootHash: eventRootOf(encoding.events), stateChangeHash: writeSetHashOf(encoding.writeSet), encoding }
}
