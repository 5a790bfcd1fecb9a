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

      const found = (
        info: LedgerInfo,
        read: Effect.Effect<BlockInfo, LedgerError>,
        notFound: (e: LedgerError) => ApiError | undefined
      ) => Effect.mapError(read, (e) => notFound(e) ?? apiErrorFromLedger(e, info, "Failed to read the block"))

      const byHeight = (height: bigint, withTransactions: boolean) =>
        Effect.flatMap(ledgerInfo, (info) =>
          found(info, ledger.blockByHeight(height), (e) =>
            e._tag === "BlockNotFound"
              ? ReadErrors.blockNotFoundByHeight(height, info)
              : e._tag === "BlockPruned"
                ? ReadErrors.blockPruned(height, info)
                : undefined
          ).pipe(Effect.flatMap((block) => answer(info, block, withTransactions)))
        )

      const byVersion = (version: bigint, withTransactions: boolean) =>
        Effect.flatMap(ledgerInfo, (info) =>
          found(info, ledger.blockByVersion(version), (e) =>
            e._tag === "VersionNotFound"
              ? ApiErrors.versionNotFound(version, info)
              : e._tag === "VersionPruned"
                ? ApiErrors.versionPruned(version, info)
                : undefined
          ).pipe(Effect.flatMap((block) => answer(info, block, withTransactions)))
        )

      return Blocks.of({ byHeight, byVersion })
    })
  )
}
