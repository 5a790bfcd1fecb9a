/** What every response's ledger headers and `GET /v1` report. */
export interface LedgerInfo {
  readonly chainId: number
  readonly epoch: bigint
  readonly ledgerVersion: bigint
  readonly oldestLedgerVersion: bigint
  readonly ledgerTimestampUsec: bigint
  readonly blockHeight: bigint
  readonly oldestBlockHeight: bigint
}
