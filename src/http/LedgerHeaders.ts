import type { LedgerInfo } from "../domain/LedgerInfo.js"

/**
 * Renders the ledger headers as a flat `[name, value, …]` array (the form `writeHead` takes
 * without copying). The last rendering is kept: under load nearly every request reads the same
 * ledger info, so the seven decimal conversions happen once per new version, not per request.
 */
export interface LedgerHeaders {
  readonly names: {
    readonly chainId: string
    readonly ledgerVersion: string
    readonly oldestLedgerVersion: string
    readonly ledgerTimestampUsec: string
    readonly epoch: string
    readonly blockHeight: string
    readonly oldestBlockHeight: string
    readonly gasUsed: string
    readonly cursor: string
  }
  readonly render: (info: LedgerInfo) => ReadonlyArray<string>
}

export const makeLedgerHeaders = (prefix: string): LedgerHeaders => {
  const names = {
    chainId: `${prefix}CHAIN-ID`,
    ledgerVersion: `${prefix}LEDGER-VERSION`,
    oldestLedgerVersion: `${prefix}LEDGER-OLDEST-VERSION`,
    ledgerTimestampUsec: `${prefix}LEDGER-TIMESTAMPUSEC`,
    epoch: `${prefix}EPOCH`,
    blockHeight: `${prefix}BLOCK-HEIGHT`,
    oldestBlockHeight: `${prefix}OLDEST-BLOCK-HEIGHT`,
    gasUsed: `${prefix}GAS-USED`,
    cursor: `${prefix}CURSOR`
  }
  let last: LedgerInfo | undefined
  let lastRendered: ReadonlyArray<string> = []
  const same = (a: LedgerInfo, b: LedgerInfo) =>
    a === b ||
    (a.ledgerVersion === b.ledgerVersion &&
      a.ledgerTimestampUsec === b.ledgerTimestampUsec &&
      a.chainId === b.chainId &&
      a.epoch === b.epoch &&
      a.oldestLedgerVersion === b.oldestLedgerVersion &&
      a.blockHeight === b.blockHeight &&
      a.oldestBlockHeight === b.oldestBlockHeight)
  const render = (info: LedgerInfo): ReadonlyArray<string> => {
    if (last !== undefined && same(last, info)) return lastRendered
    lastRendered = [
      names.chainId,
      String(info.chainId),
      names.ledgerVersion,
      info.ledgerVersion.toString(),
      names.oldestLedgerVersion,
      info.oldestLedgerVersion.toString(),
      names.ledgerTimestampUsec,
      info.ledgerTimestampUsec.toString(),
      names.epoch,
      info.epoch.toString(),
      names.blockHeight,
      info.blockHeight.toString(),
      names.oldestBlockHeight,
      info.oldestBlockHeight.toString()
    ]
    last = info
    return lastRendered
  }
  return { names, render }
}
