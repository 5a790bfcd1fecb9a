import { BcsWriter } from "../bcs/index.js"
import type { ContractEvent } from "./ContractEvent.js"
import { writeContractEvent } from "./ContractEventCodec.js"
import { hashWithPrefix } from "./hash.js"
import { accumulatorRootOf } from "./MerkleAccumulator.js"
import type { WriteSet } from "./WriteSet.js"
import { writeWriteSet } from "./WriteSetCodec.js"

/**
 * The hashes `TransactionInfo` records about a transaction's output, as the reference computes
 * them (`TransactionOutput::ensure_match_transaction_info`).
 */

/** CryptoHash of a write set: sha3(prefix("WriteSet") ‖ BCS(WriteSet)); entries in BCS key order. */
export const writeSetHash = (ws: WriteSet): Uint8Array => {
  const w = new BcsWriter(256)
  writeWriteSet(w, ws)
  return hashWithPrefix("WriteSet", w.toBytes())
}

/** CryptoHash of one event: sha3(prefix("ContractEvent") ‖ BCS(ContractEvent)). */
export const contractEventHash = (e: ContractEvent): Uint8Array => {
  const w = new BcsWriter(128)
  writeContractEvent(w, e)
  return hashWithPrefix("ContractEvent", w.toBytes())
}

/** Root of the event accumulator over the events' hashes; the placeholder hash when there are none. */
export const eventRootHash = (events: ReadonlyArray<ContractEvent>): Uint8Array =>
  accumulatorRootOf("EventAccumulator", events.map(contractEventHash))
