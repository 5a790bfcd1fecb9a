import * as Effect from "effect/Effect"
import type { BlockInfo, LedgerService } from "../../../ledger/Ledger.js"
import type { LedgerError } from "../../../ledger/LedgerError.js"
import type { IndexerInput } from "./indexerTransactionOf.js"
import type { IndexerTransaction } from "./IndexerTransaction.js"

/**
 * The processors' input for whole committed blocks: every transaction of `blocks` (ascending, as the
 * ledger committed them), each with its block's epoch and the states after and before it, the
 * tables' types learned through each before it is built (so every table change decodes).
 */
export const readIndexerBatch = (
  ledger: LedgerService,
  input: IndexerInput,
  blocks: ReadonlyArray<BlockInfo>
): Effect.Effect<ReadonlyArray<IndexerTransaction>, LedgerError> =>
  Effect.gen(function* () {
    const out: IndexerTransaction[] = []
    yield* readIndexerChunks(ledger, input, blocks, Number.POSITIVE_INFINITY, (chunk) =>
      Effect.sync(() => {
        for (const t of chunk) out.push(t)
      })
    )
    return out
  })

/**
 * The same input as `readIndexerBatch`, handed to `f` a run of at most `chunkSize` transactions at
 * a time, in version order (a run never spans two blocks); nothing of a run is kept once `f` is
 * done with it. Answers how many transactions there were. A size below 1 (or not a number) counts
 * as 1.
 */
export const readIndexerChunks = <E>(
  ledger: LedgerService,
  input: IndexerInput,
  blocks: ReadonlyArray<BlockInfo>,
  chunkSize: number,
  f: (transactions: ReadonlyArray<IndexerTransaction>) => Effect.Effect<void, E>
): Effect.Effect<number, LedgerError | E> =>
  // (`f`'s error type is erased in the shared body and given back here.)
  readChunks(ledger, input, blocks, chunkSize, f) as Effect.Effect<number, LedgerError | E>

/**
 * `readIndexerChunks`' body: one generator function for every batch, not a body made per call
 * (docs/architecture.md, "Hot loops live in functions made once").
 */
const readChunks = Effect.fnUntraced(function* (
  ledger: LedgerService,
  input: IndexerInput,
  blocks: ReadonlyArray<BlockInfo>,
  chunkSize: number,
  f: (transactions: ReadonlyArray<IndexerTransaction>) => Effect.Effect<void, unknown>
) {
  const size = chunkSize >= 1 ? chunkSize : 1
  // The tables' types through the version before the first block; `transactionOf` learns each
  // transaction's as it builds it (every table exists by the version whose items use it).
  const first = blocks[0]
  if (first !== undefined) yield* input.tablesThrough(ledger, first.firstVersion - 1n)
  let count = 0
  for (const block of blocks) {
    let before = block.firstVersion === 0n ? undefined : yield* ledger.stateAt(block.firstVersion - 1n)
    for (let from = block.firstVersion; from <= block.lastVersion; ) {
      const n = Math.min(Number(block.lastVersion - from + 1n), size)
      const transactions = yield* ledger.transactionsFrom(from, n)
      const chunk: IndexerTransaction[] = []
      for (const t of transactions) {
        const after = yield* ledger.stateAt(t.version)
        chunk.push(input.transactionOf(t, block.epoch, after, before))
        before = after
      }
      yield* f(chunk)
      count += chunk.length
      from += BigInt(n)
    }
  }
  return count
})

/**
 * The blocks from the one holding `nextVersion` on, up to `maxTransactions` transactions in all (at
 * least one block however large), stopping at the ledger's latest: what an indexer catching up
 * reads next. Empty when `nextVersion` is past the latest.
 */
export const blocksFrom: (
  ledger: LedgerService,
  nextVersion: bigint,
  maxTransactions: number
) => Effect.Effect<ReadonlyArray<BlockInfo>, LedgerError> = Effect.fnUntraced(function* (
  ledger: LedgerService,
  nextVersion: bigint,
  maxTransactions: number
) {
  const info = yield* ledger.ledgerInfo
  if (nextVersion > info.ledgerVersion) return []
  const first = yield* ledger.blockByVersion(nextVersion)
  const out: BlockInfo[] = [first]
  let total = Number(first.lastVersion - first.firstVersion + 1n)
  let height = first.height + 1n
  while (total < maxTransactions && height <= info.blockHeight) {
    const block = yield* ledger.blockByHeight(height)
    out.push(block)
    total += Number(block.lastVersion - block.firstVersion + 1n)
    height++
  }
  return out
})
