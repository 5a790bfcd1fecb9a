import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { ApiError } from "../domain/ApiError.js"
import { ApiErrors } from "../domain/ApiError.js"
import type { LedgerInfo } from "../domain/LedgerInfo.js"
import type { Transaction } from "../domain/Transaction.js"
import { type BlockInfo, type CommittedTransaction, Ledger } from "../ledger/Ledger.js"
import type { LedgerError } from "../ledger/LedgerError.js"
import { apiErrorFromLedger } from "./apiErrorFromLedger.js"
import { blockBcsOf, transactionBcs } from "./render/transactionBcs.js"
import { readLedgerInfo } from "./LedgerVersion.js"
import { NodeConfig } from "./NodeConfig.js"
import { ReadErrors } from "./readErrors.js"
import { Transactions } from "./Transactions.js"
import type { WithLedger } from "./WithLedger.js"

export interface BlockAnswer {
  readonly block: BlockInfo
  /** The block id of its metadata transaction; zero for the genesis block (its NewBlockEvent's hash is 0x0). */
  readonly hash: Uint8Array
  /** The block's first transactions (at most the page size), when asked for. */
  readonly transactions: ReadonlyArray<CommittedTransaction> | undefined
  /** `{"block_height", "block_hash", "block_timestamp", "first_version", "last_version", "transactions"}`. */
  readonly json: string
}

export interface BlocksService {
  readonly byHeight: (height: bigint, withTransactions: boolean) => Effect.Effect<WithLedger<BlockAnswer>, ApiError>
  readonly byVersion: (version: bigint, withTransactions: boolean) => Effect.Effect<WithLedger<BlockAnswer>, ApiError>
  /**
   * The same blocks in BCS (`BcsBlock`), without rendering their JSON: the followers' feed asks
   * for these, and a store holding the transactions' bytes answers them as stored.
   */
  readonly byHeightBcs: (height: bigint, withTransactions: boolean) => Effect.Effect<WithLedger<Uint8Array>, ApiError>
  readonly byVersionBcs: (version: bigint, withTransactions: boolean) => Effect.Effect<WithLedger<Uint8Array>, ApiError>
}

const ZERO_HASH = new Uint8Array(32)

const blockIdOf = (t: Transaction): Uint8Array =>
  t._tag === "BlockMetadata" ? t.metadata.id : t._tag === "BlockMetadataExt" ? t.metadata.metadata.id : ZERO_HASH

/**
 * `GET /v1/blocks/by_height/{h}` and `/by_version/{v}` (local-chain.md §2.4): the block's height,
 * hash, timestamp and version range, and with `with_transactions` its first transactions (at most
 * the transactions page size, as the reference; clients fetch the rest with `/transactions`);
 * `"transactions": null` otherwise. The genesis is block 0 alone.
 */
export class Blocks extends Context.Service<Blocks, BlocksService>()("movenode/node/Blocks") {
  static readonly layer = Layer.effect(
    Blocks,
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const transactions = yield* Transactions
      const { maxPageSize } = yield* NodeConfig
      const ledgerInfo = readLedgerInfo(ledger)

      const answer = (
        info: LedgerInfo,
        block: BlockInfo,
        withTransactions: boolean
      ): Effect.Effect<WithLedger<BlockAnswer>, ApiError> => {
        const count = Number(block.lastVersion - block.firstVersion + 1n)
        return ledger.transactionsFrom(block.firstVersion, withTransactions ? Math.min(count, maxPageSize) : 1).pipe(
          Effect.mapError((e) => apiErrorFromLedger(e, info, "Failed to read the block's transactions")),
          Effect.flatMap((first): Effect.Effect<WithLedger<BlockAnswer>, ApiError> => {
            const hash = first[0] === undefined ? ZERO_HASH : blockIdOf(first[0].transaction)
            const head = `{"block_height":"${block.height}","block_hash":"0x${Buffer.from(hash).toString("hex")}","block_timestamp":"${block.timestampUsec}","first_version":"${block.firstVersion}","last_version":"${block.lastVersion}","transactions":`
            if (!withTransactions)
              return Effect.succeed({
                ledger: info,
                value: { block, hash, transactions: undefined, json: `${head}null}` }
              })
            return Effect.map(transactions.render(first, info), (rendered) => ({
              ledger: info,
              value: { block, hash, transactions: first, json: `${head}${rendered.json}}` }
            }))
          })
        )
      }

      /** `BcsBlock`: the transactions' `TransactionOnChainData` from the store's bytes when it has them. */
      const answerBcs = (
        info: LedgerInfo,
        block: BlockInfo,
        withTransactions: boolean
      ): Effect.Effect<WithLedger<Uint8Array>, ApiError> => {
        const count = Number(block.lastVersion - block.firstVersion + 1n)
        const failed = (e: LedgerError) => apiErrorFromLedger(e, info, "Failed to read the block's transactions")
        // The block's hash is its first transaction's (its metadata's id).
        return Effect.mapError(ledger.transactionsFrom(block.firstVersion, 1), failed).pipe(
          Effect.flatMap((first) => {
            const hash = first[0] === undefined ? ZERO_HASH : blockIdOf(first[0].transaction)
            if (!withTransactions) return Effect.succeed(blockBcsOf(block, hash, undefined))
            const n = Math.min(count, maxPageSize)
            const bytes =
              ledger.transactionsBcsFrom !== undefined
                ? ledger.transactionsBcsFrom(block.firstVersion, n)
                : Effect.map(ledger.transactionsFrom(block.firstVersion, n), (ts) => ts.map(transactionBcs))
            return Effect.map(Effect.mapError(bytes, failed), (ts) => blockBcsOf(block, hash, ts))
          }),
          Effect.map((value) => ({ ledger: info, value }))
        )
      }

      const found = (
        info: LedgerInfo,
        read: Effect.Effect<BlockInfo, LedgerError>,
        notFound: (e: LedgerError) => ApiError | undefined
      ) => Effect.mapError(read, (e) => notFound(e) ?? apiErrorFromLedger(e, info, "Failed to read the block"))

      const atHeight =
        <A>(then: (info: LedgerInfo, block: BlockInfo, withTransactions: boolean) => Effect.Effect<A, ApiError>) =>
        (height: bigint, withTransactions: boolean) =>
          Effect.flatMap(ledgerInfo, (info) =>
            found(info, ledger.blockByHeight(height), (e) =>
              e._tag === "BlockNotFound"
                ? ReadErrors.blockNotFoundByHeight(height, info)
                : e._tag === "BlockPruned"
                  ? ReadErrors.blockPruned(height, info)
                  : undefined
            ).pipe(Effect.flatMap((block) => then(info, block, withTransactions)))
          )

      const atVersion =
        <A>(then: (info: LedgerInfo, block: BlockInfo, withTransactions: boolean) => Effect.Effect<A, ApiError>) =>
        (version: bigint, withTransactions: boolean) =>
          Effect.flatMap(ledgerInfo, (info) =>
            found(info, ledger.blockByVersion(version), (e) =>
              e._tag === "VersionNotFound"
                ? ApiErrors.versionNotFound(version, info)
                : e._tag === "VersionPruned"
                  ? ApiErrors.versionPruned(version, info)
                  : undefined
            ).pipe(Effect.flatMap((block) => then(info, block, withTransactions)))
          )

      return Blocks.of({
        byHeight: atHeight(answer),
        byVersion: atVersion(answer),
        byHeightBcs: atHeight(answerBcs),
        byVersionBcs: atVersion(answerBcs)
      })
    })
  )
}
