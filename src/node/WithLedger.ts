import type { LedgerInfo } from "../domain/LedgerInfo.js"

/** Every answer carries the ledger info it was computed against (for the ledger headers). */
export interface WithLedger<A> {
  readonly ledger: LedgerInfo
  readonly value: A
}
