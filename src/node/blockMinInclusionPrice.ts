import * as Effect from "effect/Effect"
import type { BlockInfo, LedgerService } from "../ledger/Ledger.js"
import type { LedgerError } from "../ledger/LedgerError.js"

/** What gas estimation needs of one block's transactions. */
export interface BlockGasFacts {
  /** `gas_unit_price` of each user transaction in the block. */
  readonly userGasUnitPrices: ReadonlyArray<bigint>
  /** Whether a block epilogue in the block reports a block limit (gas or output) reached. */
  readonly epilogueLimitReached: boolean | undefined
}

/**
 * Reads the block's transactions, all of `[firstVersion, lastVersion]` (only what the estimate needs of
 * each, where the store can read that in place: `LedgerService.transactionsGasFacts`). The reference reads
 * `last - first` transactions from `first`, which would leave the block epilogue (the last one) out
 * and make its limit flag unreachable; we read the inclusive range so the epilogue counts, as the
 * contract says ("full at 250 user transactions or a block limit reached").
 */
export const readBlockGasFacts = (
  ledger: LedgerService,
  block: BlockInfo
): Effect.Effect<BlockGasFacts, LedgerError> =>
  ledger.transactionsGasFacts === undefined
    ? readDecoded(ledger, block)
    : Effect.map(ledger.transactionsGasFacts(block.firstVersion, block.lastVersion), (facts) => {
        const prices: bigint[] = []
        let epilogueLimitReached: boolean | undefined
        for (const f of facts) {
          if (f.userGasUnitPrice !== undefined) prices.push(f.userGasUnitPrice)
          else if (f.blockLimitReached !== undefined) epilogueLimitReached = f.blockLimitReached
        }
        return { userGasUnitPrices: prices, epilogueLimitReached }
      })

/** `readBlockGasFacts` from the decoded transactions (a store without `transactionsGasFacts`). */
const readDecoded = (ledger: LedgerService, block: BlockInfo): Effect.Effect<BlockGasFacts, LedgerError> =>
  Effect.gen(function* () {
    const prices: bigint[] = []
    let epilogueLimitReached: boolean | undefined
    for (let v = block.firstVersion; v <= block.lastVersion; v++) {
      const { transaction } = yield* ledger.transactionByVersion(v)
      if (transaction._tag === "UserTransaction") prices.push(transaction.signed.rawTransaction.gasUnitPrice)
      else if (transaction._tag === "BlockEpilogue" && transaction.blockEndInfo !== undefined)
        epilogueLimitReached =
          transaction.blockEndInfo.blockGasLimitReached || transaction.blockEndInfo.blockOutputLimitReached
    }
    return { userGasUnitPrices: prices, epilogueLimitReached }
  })

/**
 * The block's minimum inclusion price (aptos-api-behaviour.md §6.3): a full block (at least
 * `fullBlockTxns` user transactions, else its epilogue's limit flag) is priced at its cheapest user
 * transaction rounded up to the next bucket; any other block at the on-chain minimum.
 */
export const blockMinInclusionPrice = (
  facts: BlockGasFacts,
  fullBlockTxns: number,
  minGasUnitPrice: bigint,
  nextBucket: (price: bigint) => bigint
): bigint => {
  const prices = facts.userGasUnitPrices
  const full = prices.length >= fullBlockTxns ? true : (facts.epilogueLimitReached ?? false)
  // A full block with no user transaction (only an epilogue saying so) has no price to round up.
  if (!full || prices.length === 0) return minGasUnitPrice
  let min = prices[0]!
  for (const p of prices) if (p < min) min = p
  return nextBucket(min)
}
