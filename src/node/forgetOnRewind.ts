import type { LedgerService } from "../ledger/Ledger.js"

/**
 * For caches keyed by ledger version: after the ledger was rewound (a local chain's revert, reset
 * or load), versions above the rewind point are reused by different transactions and state, so
 * what such a cache holds may be wrong. The returned check runs `forget` once per rewind since the
 * last call (a counter comparison: free on a ledger that never rewinds); call it before a lookup.
 */
export const forgetOnRewind = (ledger: LedgerService, forget: () => void): (() => void) => {
  const rewind = ledger.rewind
  if (rewind === undefined) return () => {}
  let seen = rewind.rewinds()
  return () => {
    const now = rewind.rewinds()
    if (now !== seen) {
      seen = now
      forget()
    }
  }
}
