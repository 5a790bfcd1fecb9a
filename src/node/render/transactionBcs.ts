import { BcsWriter } from "../../bcs/index.js"
import { writeHashValue } from "../../domain/BlockCodec.js"
import { writeContractEvent } from "../../domain/ContractEventCodec.js"
import { writeTransaction } from "../../domain/TransactionCodec.js"
import { writeTransactionInfo } from "../../domain/TransactionInfoCodec.js"
import { writeWriteSet } from "../../domain/WriteSetCodec.js"
import type { BlockInfo, CommittedTransaction } from "../../ledger/Ledger.js"

/**
 * The BCS answers of the transaction and block endpoints, as the reference encodes them:
 * `TransactionOnChainData {version: u64, transaction: Transaction, info: TransactionInfo,
 * events: Vec<ContractEvent>, accumulator_root_hash: HashValue, changes: WriteSet}`, a list of them,
 * and `BcsBlock {block_height, block_hash, block_timestamp, first_version, last_version,
 * transactions: Option<Vec<TransactionOnChainData>>}`.
 */
export const writeTransactionOnChainData = (w: BcsWriter, t: CommittedTransaction): void => {
  w.u64(t.version)
  writeTransaction(w, t.transaction)
  writeTransactionInfo(w, t.info)
  w.uleb128(t.events.length)
  for (const e of t.events) writeContractEvent(w, e)
  writeHashValue(w, t.accumulatorRootHash)
  writeWriteSet(w, t.writeSet)
}

export const transactionBcs = (t: CommittedTransaction): Uint8Array => {
  const w = new BcsWriter(512)
  writeTransactionOnChainData(w, t)
  return w.toBytes()
}

/**
 * `TransactionData`, what by_version, by_hash and wait_by_hash answer in BCS (the reference's
 * `get_transaction_inner` encodes the enum, and its Rust client decodes these answers as one): the
 * variant index, then `OnChain(TransactionOnChainData)` (0) or `Pending(SignedTransaction)` (1).
 * Lists answer bare `TransactionOnChainData`s.
 */
export const transactionDataBcs = (t: CommittedTransaction): Uint8Array => {
  const w = new BcsWriter(512)
  w.uleb128(0)
  writeTransactionOnChainData(w, t)
  return w.toBytes()
}

/** `TransactionData::Pending` of a pooled transaction, from its `SignedTransaction` BCS. */
export const pendingTransactionDataBcs = (signedTransactionBcs: Uint8Array): Uint8Array => {
  const out = new Uint8Array(1 + signedTransactionBcs.length)
  out[0] = 1
  out.set(signedTransactionBcs, 1)
  return out
}

export const transactionsBcs = (ts: ReadonlyArray<CommittedTransaction>): Uint8Array => {
  const w = new BcsWriter(1024)
  w.uleb128(ts.length)
  for (const t of ts) writeTransactionOnChainData(w, t)
  return w.toBytes()
}

/** `Vec<TransactionOnChainData>` of transactions already in that BCS. */
export const transactionListBcsOf = (transactions: ReadonlyArray<Uint8Array>): Uint8Array => {
  let size = 8
  for (const t of transactions) size += t.length
  const w = new BcsWriter(size)
  w.uleb128(transactions.length)
  for (const t of transactions) w.fixed(t)
  return w.toBytes()
}

/** `BcsBlock`'s fields before its transactions: height, hash, timestamp, first and last version. */
const writeBlockHeader = (w: BcsWriter, block: BlockInfo, blockHash: Uint8Array): BcsWriter => {
  w.u64(block.height)
  writeHashValue(w, blockHash)
  return w.u64(block.timestampUsec).u64(block.firstVersion).u64(block.lastVersion)
}

/** `BcsBlock` with its transactions already in `TransactionOnChainData` BCS (or none: `None`). */
export const blockBcsOf = (
  block: BlockInfo,
  blockHash: Uint8Array,
  transactions: ReadonlyArray<Uint8Array> | undefined
): Uint8Array => {
  let size = 64
  for (const t of transactions ?? []) size += t.length
  const w = writeBlockHeader(new BcsWriter(size), block, blockHash)
  if (transactions === undefined) w.u8(0)
  else {
    w.u8(1).uleb128(transactions.length)
    for (const t of transactions) w.fixed(t)
  }
  return w.toBytes()
}

export const blockBcs = (
  block: BlockInfo,
  blockHash: Uint8Array,
  transactions: ReadonlyArray<CommittedTransaction> | undefined
): Uint8Array => {
  const w = writeBlockHeader(new BcsWriter(256), block, blockHash)
  if (transactions === undefined) w.u8(0)
  else {
    w.u8(1).uleb128(transactions.length)
    for (const t of transactions) writeTransactionOnChainData(w, t)
  }
  return w.toBytes()
}
