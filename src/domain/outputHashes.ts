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

// Encoded once per object: the commit hashes a write set and its events and the ledger's record
// stores the same bytes (issue 22: the second encoding was a few % of a commit). Write sets and
// events are immutable once made, so an object's bytes never change; the entry goes with the object.
const writeSetEncodings = new WeakMap<WriteSet, EncodedWriteSet>()
const eventEncodings = new WeakMap<ContractEvent, Uint8Array>()

/** BCS(WriteSet) with its ops' offsets, encoded once per write set object. */
export const encodedWriteSet = (ws: WriteSet): EncodedWriteSet => {
  let e = writeSetEncodings.get(ws)
  if (e === undefined) {
    e = withScratchWriter(encodeWriteSetWith, ws)
    writeSetEncodings.set(ws, e)
  }
  return e
}

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

/** BCS(ContractEvent), encoded once per event object. */
export const encodedContractEvent = (event: ContractEvent): Uint8Array => {
  let bytes = eventEncodings.get(event)
  if (bytes === undefined) {
    bytes = withScratchWriter(encodeEventWith, event)
    eventEncodings.set(event, bytes)
  }
  return bytes
}

const encodeEventWith = (w: BcsWriter, event: ContractEvent): Uint8Array => {
  writeContractEvent(w, event)
  // As a write set's: a block output, from a slab.
  return w.toSlabBytes()
}

/** CryptoHash of a write set: sha3(prefix("WriteSet") ‖ BCS(WriteSet)); entries in BCS key order. */
export const writeSetHash = (ws: WriteSet): Uint8Array => hashWithPrefix("WriteSet", encodedWriteSet(ws).bytes)

/** CryptoHash of one event: sha3(prefix("ContractEvent") ‖ BCS(ContractEvent)). */
export const contractEventHash = (e: ContractEvent): Uint8Array =>
  hashWithPrefix("ContractEvent", encodedContractEvent(e))

/** Root of the event accumulator over the events' hashes; the placeholder hash when there are none. */
export const eventRootHash = (events: ReadonlyArray<ContractEvent>): Uint8Array =>
  accumulatorRootOf("EventAccumulator", events.map(contractEventHash))

/** The two hashes of a transaction's output its `TransactionInfo` records. */
export interface OutputHashes {
  readonly eventRootHash: Uint8Array
  readonly stateChangeHash: Uint8Array
}

export const outputHashes = (writeSet: WriteSet, events: ReadonlyArray<ContractEvent>): OutputHashes => ({
  eventRootHash: eventRootHash(events),
  stateChangeHash: writeSetHash(writeSet)
})
