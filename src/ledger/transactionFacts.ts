import type { Transaction } from "../domain/Transaction.js"
import { transactionHash } from "../domain/hash.js"
import { replayProtectorOf } from "../domain/ReplayProtector.js"
import type { TransactionSummary } from "./Ledger.js"

/** The transaction's hash as the reference computes it (domain's `transactionHash`). */
export const transactionHashOf = (t: Transaction): Uint8Array => transactionHash(t)

/**
 * The per-sender summary of a committed user transaction (sequence-number or orderless, the
 * replay protector read from the payload); undefined for every other kind of transaction.
 */
export const userSummaryOf = (t: Transaction, version: bigint, hash: Uint8Array): TransactionSummary | undefined =>
  t._tag === "UserTransaction"
    ? {
        sender: t.signed.rawTransaction.sender,
        version,
        hash,
        replayProtector: replayProtectorOf(t.signed.rawTransaction)
      }
    : undefined
