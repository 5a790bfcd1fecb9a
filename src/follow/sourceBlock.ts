/**
 * What a source's REST API sends a follower, decoded, with the exact bytes of each part kept: the
 * checks hash what was received (`checkTransaction.ts`), not a re-encoding of it.
 *
 * - `BcsBlock {block_height, block_hash, block_timestamp, first_version, last_version,
 *   transactions: Option<Vec<TransactionOnChainData>>}` (`GET /v1/blocks/by_version/{v}` in BCS);
 * - `Vec<TransactionOnChainData>` (`GET /v1/transactions?start&limit` in BCS), where
 *   `TransactionOnChainData {version, transaction, info, events, accumulator_root_hash, changes}`.
 *
 * Decoding never throws to callers: a malformed answer is a `Result` failure naming the offset.
 */
import * as Result from "effect/Result"
import { BcsError, BcsReader, type BcsLimits } from "../bcs/index.js"
import { readHashValue } from "../domain/BlockCodec.js"
import type { ContractEvent } from "../domain/ContractEvent.js"
import { readContractEvent } from "../domain/ContractEventCodec.js"
import type { Transaction } from "../domain/Transaction.js"
import { readTransaction } from "../domain/TransactionCodec.js"
import type { TransactionInfo } from "../domain/TransactionInfo.js"
import { readTransactionInfo } from "../domain/TransactionInfoCodec.js"
import type { WriteSet } from "../domain/WriteSet.js"
import { readWriteSet } from "../domain/WriteSetCodec.js"

/** The bytes each part of a transaction arrived as (views into the response body). */
export interface SourceBytes {
  /** The whole `TransactionOnChainData` (what the checks' worker is sent). */
  readonly all: Uint8Array
  readonly transaction: Uint8Array
  readonly info: Uint8Array
  readonly events: ReadonlyArray<Uint8Array>
  /** The events' vector (its length, then the events): as the ledger's record stores it. */
  readonly eventList: Uint8Array
  readonly writeSet: Uint8Array
}

/** One `TransactionOnChainData`, decoded, with its received bytes. */
export interface SourceTransaction {
  readonly version: bigint
  readonly transaction: Transaction
  readonly info: TransactionInfo
  readonly events: ReadonlyArray<ContractEvent>
  readonly accumulatorRootHash: Uint8Array
  readonly writeSet: WriteSet
  readonly bytes: SourceBytes
}

/** A `BcsBlock`; `transactions` is undefined when the source sent none (`with_transactions=false`). */
export interface SourceBlock {
  readonly height: bigint
  readonly hash: Uint8Array
  readonly timestampUsec: bigint
  readonly firstVersion: bigint
  /** Inclusive. */
  readonly lastVersion: bigint
  readonly transactions: ReadonlyArray<SourceTransaction> | undefined
}

/**
 * Limits for source answers: a block's page holds at most 10,000 transactions on the reference
 * (`MAX_RECEIVING_BLOCK_TXNS`), a module or write set can be large, and nesting stays shallow.
 */
const SOURCE_LIMITS: BcsLimits = { maxLength: 64 * 1024 * 1024, maxDepth: 64 }

/** Reads `read` and returns what it read with the bytes it spanned. */
const spanned = <A>(r: BcsReader, read: (r: BcsReader) => A): { readonly value: A; readonly bytes: Uint8Array } => {
  const start = r.offset
  const value = read(r)
  return { value, bytes: r.bytes.subarray(start, r.offset) }
}

const readSourceTransaction = (r: BcsReader): SourceTransaction => {
  const start = r.offset
  const version = r.u64()
  const transaction = spanned(r, readTransaction)
  const info = spanned(r, readTransactionInfo)
  const eventsStart = r.offset
  const count = r.length()
  const events: ContractEvent[] = []
  const eventBytes: Uint8Array[] = []
  for (let i = 0; i < count; i++) {
    const e = spanned(r, readContractEvent)
    events.push(e.value)
    eventBytes.push(e.bytes)
  }
  const eventList = r.bytes.subarray(eventsStart, r.offset)
  const accumulatorRootHash = readHashValue(r)
  const writeSet = spanned(r, readWriteSet)
  return {
    version,
    transaction: transaction.value,
    info: info.value,
    events,
    accumulatorRootHash,
    writeSet: writeSet.value,
    bytes: {
      all: r.bytes.subarray(start, r.offset),
      transaction: transaction.bytes,
      info: info.bytes,
      events: eventBytes,
      eventList,
      writeSet: writeSet.bytes
    }
  }
}

const readTransactionList = (r: BcsReader): ReadonlyArray<SourceTransaction> => {
  const count = r.length()
  const out: SourceTransaction[] = []
  for (let i = 0; i < count; i++) out.push(readSourceTransaction(r))
  return out
}

const decodeWith = <A>(bytes: Uint8Array, read: (r: BcsReader) => A): Result.Result<A, BcsError> => {
  const r = new BcsReader(bytes, SOURCE_LIMITS)
  try {
    const value = read(r)
    r.expectEnd()
    return Result.succeed(value)
  } catch (e) {
    if (e instanceof BcsError) return Result.fail(e)
    // A decoder's own checks (a RangeError from a typed array, …): still the input's fault.
    return Result.fail(new BcsError(e instanceof Error ? e.message : String(e), r.offset))
  }
}

/** `GET /v1/blocks/by_version/{v}?with_transactions=true` in BCS. */
export const decodeSourceBlock = (bytes: Uint8Array): Result.Result<SourceBlock, BcsError> =>
  decodeWith(bytes, (r) => {
    const height = r.u64()
    const hash = readHashValue(r)
    const timestampUsec = r.u64()
    const firstVersion = r.u64()
    const lastVersion = r.u64()
    const transactions = r.optionTag() ? readTransactionList(r) : undefined
    return { height, hash, timestampUsec, firstVersion, lastVersion, transactions }
  })

/** `GET /v1/transactions?start&limit` in BCS. */
export const decodeSourceTransactions = (
  bytes: Uint8Array
): Result.Result<ReadonlyArray<SourceTransaction>, BcsError> => decodeWith(bytes, readTransactionList)

/**
 * `GET /v1/transactions/by_version/{v}` in BCS: `TransactionData`, variant 0 (`OnChain`) then the
 * `TransactionOnChainData`; a pending transaction (variant 1) never answers a version.
 */
export const decodeSourceTransactionData = (bytes: Uint8Array): Result.Result<SourceTransaction, BcsError> =>
  decodeWith(bytes, (r) => {
    const variant = r.uleb128()
    if (variant !== 0) r.fail(`expected TransactionData::OnChain (0), got variant ${variant}`)
    return readSourceTransaction(r)
  })
