import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { AccountAddress } from "../domain/AccountAddress.js"
import { ApiErrors, type ApiError } from "../domain/ApiError.js"
import type { LedgerInfo } from "../domain/LedgerInfo.js"
import { type CommittedTransaction, Ledger } from "../ledger/Ledger.js"
import type { LedgerError } from "../ledger/LedgerError.js"
import { Accounts } from "./Accounts.js"
import { apiErrorFromLedger } from "./apiErrorFromLedger.js"
import { readLedgerInfo } from "./LedgerVersion.js"
import { NodeConfig } from "./NodeConfig.js"
import { pageLimit, ReadErrors } from "./readErrors.js"
import { Renderer } from "./Renderer.js"
import { transactionBcs, transactionListBcsOf } from "./render/transactionBcs.js"
import type { WithLedger } from "./WithLedger.js"

/** One committed transaction with its JSON text (the BCS form is rendered from `transaction`). */
export interface RenderedTransaction {
  readonly transaction: CommittedTransaction
  readonly json: string
}

/** Committed transactions with the JSON array text of all of them. */
export interface RenderedTransactions {
  readonly transactions: ReadonlyArray<CommittedTransaction>
  readonly json: string
}

export interface PageRequest {
  readonly start?: bigint | undefined
  readonly limit?: number | undefined
}

export interface TransactionsService {
  /** `GET /v1/transactions/by_version/{version}`. */
  readonly byVersion: (version: bigint) => Effect.Effect<WithLedger<RenderedTransaction>, ApiError>
  /** `GET /v1/transactions/by_hash/{hash}`, committed transactions only (the mempool is chain's). */
  readonly byHash: (hash: Uint8Array) => Effect.Effect<WithLedger<RenderedTransaction>, ApiError>
  /** `GET /v1/transactions?start&limit`: the latest page without `start`. */
  readonly list: (request: PageRequest) => Effect.Effect<WithLedger<RenderedTransactions>, ApiError>
  /**
   * `list` in BCS (`Vec<TransactionOnChainData>`), without rendering the JSON: a follower completes
   * a long block with it; a store holding the transactions' bytes answers them as stored.
   */
  readonly listBcs: (request: PageRequest) => Effect.Effect<WithLedger<Uint8Array>, ApiError>
  /** `GET /v1/accounts/{address}/transactions?start&limit`: `start` is a sequence number. */
  readonly byAccount: (
    address: AccountAddress,
    request: PageRequest
  ) => Effect.Effect<WithLedger<RenderedTransactions>, ApiError>
  /** Committed transactions rendered (a block's, for the block endpoints). */
  readonly render: (
    transactions: ReadonlyArray<CommittedTransaction>,
    ledger: LedgerInfo
  ) => Effect.Effect<RenderedTransactions, ApiError>
}

/** The reference's `DEFAULT_PAGE_SIZE` for transaction lists without `limit`. */
const DEFAULT_PAGE_SIZE = 25

/**
 * The transaction endpoints (local-chain.md §2.1–2.2): committed transactions by version, by hash,
 * in ledger order and by their sender's sequence numbers, each rendered once per version by the
 * `Renderer` (so every way of reading a transaction gives the same text).
 */
export class Transactions extends Context.Service<Transactions, TransactionsService>()("movenode/node/Transactions") {
  static readonly layer = Layer.effect(
    Transactions,
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const renderer = yield* Renderer
      const accounts = yield* Accounts
      const { maxPageSize } = yield* NodeConfig
      const ledgerInfo = readLedgerInfo(ledger)

      const render = (transactions: ReadonlyArray<CommittedTransaction>, info: LedgerInfo) =>
        Effect.map(
          Effect.forEach(transactions, (t) => renderer.transactionText(t, info)),
          (texts): RenderedTransactions => ({ transactions, json: `[${texts.join(",")}]` })
        )

      const one = (
        info: LedgerInfo,
        read: Effect.Effect<CommittedTransaction, LedgerError>,
        notFound: (e: LedgerError) => ApiError | undefined
      ) =>
        read.pipe(
          Effect.mapError((e) => notFound(e) ?? apiErrorFromLedger(e, info, "Failed to read the transaction")),
          Effect.flatMap((t) =>
            Effect.map(renderer.transactionText(t, info), (json) => ({ ledger: info, value: { transaction: t, json } }))
          )
        )

      const byVersion = (version: bigint) =>
        Effect.flatMap(ledgerInfo, (info) =>
          one(info, ledger.transactionByVersion(version), (e) =>
            e._tag === "VersionNotFound" ? ReadErrors.transactionNotFoundByVersion(version, info) : undefined
          )
        )

      const byHash = (hash: Uint8Array) =>
        Effect.flatMap(ledgerInfo, (info) =>
          one(info, ledger.transactionByHash(hash), (e) =>
            e._tag === "TransactionNotFound"
              ? ReadErrors.transactionNotFoundByHash(`0x${Buffer.from(hash).toString("hex")}`, info)
              : undefined
          )
        )

      const page = (info: LedgerInfo, read: Effect.Effect<ReadonlyArray<CommittedTransaction>, LedgerError>) =>
        read.pipe(
          Effect.mapError((e) => apiErrorFromLedger(e, info, "Failed to read transactions")),
          Effect.flatMap((ts) => render(ts, info)),
          Effect.map((value) => ({ ledger: info, value }))
        )

      /** The versions `list` answers: from `start` (the latest page without it), at most `limit`. */
      const listRange = (
        request: PageRequest,
        info: LedgerInfo
      ): { readonly start: bigint; readonly limit: number } | ApiError => {
        const limit = pageLimit(request.limit, DEFAULT_PAGE_SIZE, maxPageSize, info)
        if (typeof limit !== "number") return limit
        const latest = info.ledgerVersion
        let start = request.start
        if (start === undefined) {
          // The latest page (`compute_start`), never below the oldest retained version.
          const last = latest - BigInt(limit - 1)
          start = last < info.oldestLedgerVersion ? info.oldestLedgerVersion : last
        } else if (start > latest) return ReadErrors.startTooHigh(start, latest, info)
        else if (start < info.oldestLedgerVersion) return ApiErrors.versionPruned(start, info)
        return { start, limit }
      }

      const list = (request: PageRequest) =>
        Effect.flatMap(ledgerInfo, (info) => {
          const range = listRange(request, info)
          if (!("start" in range)) return Effect.fail(range)
          return page(info, ledger.transactionsFrom(range.start, range.limit))
        })

      const listBcs = (request: PageRequest) =>
        Effect.flatMap(ledgerInfo, (info) => {
          const range = listRange(request, info)
          if (!("start" in range)) return Effect.fail(range)
          const bytes =
            ledger.transactionsBcsFrom !== undefined
              ? ledger.transactionsBcsFrom(range.start, range.limit)
              : Effect.map(ledger.transactionsFrom(range.start, range.limit), (ts) => ts.map(transactionBcs))
          return bytes.pipe(
            Effect.mapError((e) => apiErrorFromLedger(e, info, "Failed to read transactions")),
            Effect.map((ts) => ({ ledger: info, value: transactionListBcsOf(ts) }))
          )
        })

      const byAccount = (address: AccountAddress, request: PageRequest) =>
        Effect.flatMap(ledgerInfo, (info) => {
          const limit = pageLimit(request.limit, DEFAULT_PAGE_SIZE, maxPageSize, info)
          if (typeof limit !== "number") return Effect.fail(limit)
          if (request.start !== undefined) return page(info, ledger.accountTransactions(address, request.start, limit))
          // Without `start`: the account's `limit` most recent, from its sequence number (the
          // account must exist, or be the stateless default, as in the reference).
          return Effect.mapError(ledger.stateAt(info.ledgerVersion), (e) =>
            apiErrorFromLedger(e, info, "Failed to read the account")
          ).pipe(
            Effect.flatMap((state) => {
              const sequenceNumber = accounts.sequenceNumberAt(state, address)
              if (sequenceNumber === undefined)
                return Effect.fail(ReadErrors.accountNotFound(address, info.ledgerVersion, info))
              const from = sequenceNumber > BigInt(limit) ? sequenceNumber - BigInt(limit) : 0n
              return page(info, ledger.accountTransactions(address, from, limit))
            })
          )
        })

      return Transactions.of({ byVersion, byHash, list, listBcs, byAccount, render })
    })
  )
}
