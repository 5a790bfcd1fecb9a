import type { ExecutionStatus } from "./ExecutionStatus.js"

/**
 * What the ledger records about a transaction's execution (`TransactionInfo::V0`), the leaf of the
 * transaction accumulator. BCS: enum tag 0 (V0), then in this order gas_used u64, status
 * (`ExecutionStatus`), transaction_hash, event_root_hash, state_change_hash (HashValues: ULEB 32 +
 * 32 bytes), state_checkpoint_hash and auxiliary_info_hash (Option<HashValue>). Hashed as
 * "APTOS::TransactionInfo" (`transactionInfoHash`).
 *
 * - `stateChangeHash`: CryptoHash of the transaction's write set (`writeSetHash`).
 * - `eventRootHash`: root of the in-memory event accumulator over its events' hashes, the
 *   placeholder hash when there are none (`eventRootHash`).
 * - `stateCheckpointHash`: the reference's Jellyfish Merkle root of global state, set on checkpoint
 *   transactions. movenode keeps no Merkle tree of state and records none (see docs/reads.md).
 * - `auxiliaryInfoHash`: hash of the reference's persisted auxiliary info; movenode records none.
 */
export interface TransactionInfo {
  readonly gasUsed: bigint
  readonly status: ExecutionStatus
  readonly transactionHash: Uint8Array
  readonly eventRootHash: Uint8Array
  readonly stateChangeHash: Uint8Array
  readonly stateCheckpointHash: Uint8Array | undefined
  readonly auxiliaryInfoHash: Uint8Array | undefined
}
