import type { CommittedTransaction } from "./Ledger.js"

/**
 * A committed transaction's LMDB record as already encoded (`encodeTransactionRecordWithOffsets`'s
 * result), when it is known: a loaded dump holds every transaction as its record, and its blocks
 * keep their heights and timestamps, so the LMDB store writes those bytes as they are instead of
 * encoding the transaction again (a third of a load's time). Kept per transaction object (weakly):
 * whoever makes a new object for the same transaction says whether the record still holds.
 */
export interface KnownRecord {
  readonly bytes: Uint8Array
  /** Where each write-set entry's op starts, in write-set order. */
  readonly opOffsets: ReadonlyArray<number>
  /** Where each event starts. */
  readonly eventOffsets: ReadonlyArray<number>
}

const known = new WeakMap<CommittedTransaction, KnownRecord>()

export const rememberRecord = (t: CommittedTransaction, record: KnownRecord): void => {
  known.set(t, record)
}

export const knownRecord = (t: CommittedTransaction): KnownRecord | undefined => known.get(t)
