import type { BlockInfo, BlockToCommit, CommittedTransaction, TransactionSummary } from "./Ledger.js"
import type { LedgerHead, PreparedBlock } from "./LedgerBackend.js"
import { oldestRetained } from "./pruneWindow.js"
import { transactionHashOf, userSummaryOf } from "./transactionFacts.js"

/**
 * Everything a store writes for one block, computed once for every store: versions after the
 * latest, the next height, transaction hashes, per-sender summaries, and the head after the block
 * (the epoch and timestamp are the block's; the window moves forward when `window` is set).
 * Throws on an empty block: a block holds at least one transaction.
 */
export const prepareBlock = (
  before: LedgerHead | undefined,
  block: BlockToCommit,
  context: {
    /** Recorded only by the first block; later blocks keep the stored chain id. */
    readonly chainId: number
    readonly window: bigint | undefined
    readonly blockOfVersion: (version: bigint) => BlockInfo | undefined
  }
): PreparedBlock => {
  if (block.transactions.length === 0) throw new Error("a block holds at least one transaction")
  const firstVersion = before === undefined ? 0n : before.latestVersion + 1n
  const height = before === undefined ? 0n : before.latestHeight + 1n
  const info: BlockInfo = {
    height,
    firstVersion,
    lastVersion: firstVersion + BigInt(block.transactions.length) - 1n,
    timestampUsec: block.timestampUsec,
    epoch: block.epoch
  }
  const transactions: CommittedTransaction[] = []
  const summaries: TransactionSummary[] = []
  block.transactions.forEach((t, i) => {
    const version = firstVersion + BigInt(i)
    const hash = transactionHashOf(t.transaction)
    transactions.push({ ...t, version, hash, blockHeight: height })
    const summary = userSummaryOf(t.transaction, version, hash)
    if (summary !== undefined) summaries.push(summary)
  })
  const current =
    before === undefined ? { version: 0n, height: 0n } : { version: before.oldestVersion, height: before.oldestHeight }
  const oldest = oldestRetained(context.window, info, current, context.blockOfVersion)
  const head: LedgerHead = {
    chainId: before?.chainId ?? context.chainId,
    latestVersion: info.lastVersion,
    latestHeight: height,
    epoch: block.epoch,
    timestampUsec: block.timestampUsec,
    oldestVersion: oldest.version,
    oldestHeight: oldest.height,
    genesisHash: before?.genesisHash ?? transactions[0]!.hash
  }
  return { block: info, transactions, summaries, head }
}
