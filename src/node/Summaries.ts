import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { AccountAddress } from "../domain/AccountAddress.js"
import { ApiErrors, type ApiError } from "../domain/ApiError.js"
import type { LedgerInfo } from "../domain/LedgerInfo.js"
import { forgetOnRewind } from "./forgetOnRewind.js"
import { Ledger, type TransactionSummary } from "../ledger/Ledger.js"
import { apiErrorFromLedger } from "./apiErrorFromLedger.js"
import { readLedgerInfo } from "./LedgerVersion.js"
import type { WithLedger } from "./WithLedger.js"
import { NodeConfig } from "./NodeConfig.js"

export interface SummaryPage {
  readonly summaries: ReadonlyArray<TransactionSummary>
  /** When the page is full: the `start_version` of the next page (the `CURSOR` header). */
  readonly cursor: bigint | undefined
}

export interface SummaryRequest {
  readonly startVersion?: bigint | undefined
  readonly endVersion?: bigint | undefined
  readonly limit?: number | undefined
}

export interface SummariesService {
  readonly page: (address: AccountAddress, query: SummaryRequest) => Effect.Effect<WithLedger<SummaryPage>, ApiError>
}

/**
 * `/accounts/{address}/transaction_summaries` (contract item 2): the limit clamped to the maximum page
 * size (absent = the maximum), both bounds honoured (the ledger's index does the scan), a bound below
 * the oldest retained version = 410, an unknown account = `[]`. The cursor is the `start_version`
 * of the next page, so it exists only where one does: on a full page of a forward scan (a
 * `start_version` was given) that has not reached its `end_version`. A scan without `start_version`
 * returns the newest summaries (at or below `end_version`), so no later page continues it.
 */
export class Summaries extends Context.Service<Summaries, SummariesService>()("movenode/node/Summaries") {
  static readonly layer = Layer.effect(
    Summaries,
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const { maxPageSize, summaryPageCache } = yield* NodeConfig
      const cache = makePageCache(summaryPageCache)
      const rewound = forgetOnRewind(ledger, () => cache?.clear())

      const page = (address: AccountAddress, query: SummaryRequest): Effect.Effect<WithLedger<SummaryPage>, ApiError> =>
        Effect.flatMap(readLedgerInfo(ledger), (info) => {
          const limit = clampLimit(query.limit, maxPageSize)
          for (const bound of [query.startVersion, query.endVersion])
            if (bound !== undefined && bound < info.oldestLedgerVersion)
              return Effect.fail(ApiErrors.versionPruned(bound, info))
          if (limit === 0) return Effect.succeed({ ledger: info, value: { summaries: [], cursor: undefined } })
          const id = cache === undefined ? "" : pageId(address, query, limit, info.ledgerVersion)
          rewound()
          const hit = cache?.get(info, id)
          if (hit !== undefined) return Effect.succeed({ ledger: info, value: hit })
          return Effect.mapBoth(
            ledger.summariesBySender(address, {
              startVersion: query.startVersion,
              endVersion: query.endVersion,
              limit
            }),
            {
              onFailure: (e) => apiErrorFromLedger(e, info, "Failed to retrieve account transaction summaries"),
              onSuccess: (summaries) => {
                const last = summaries[summaries.length - 1]
                const next = last === undefined ? undefined : last.version + 1n
                const cursor =
                  next !== undefined &&
                  query.startVersion !== undefined &&
                  summaries.length >= limit &&
                  (query.endVersion === undefined || next <= query.endVersion)
                    ? next
                    : undefined
                const value = { summaries, cursor }
                cache?.set(info, id, value)
                return { ledger: info, value }
              }
            }
          )
        })

      return Summaries.of({ page })
    })
  )
}

/** The page's identity at one head: the end bound above the latest version reads as the latest. */
const pageId = (address: AccountAddress, query: SummaryRequest, limit: number, latest: bigint): string => {
  const end = query.endVersion === undefined || query.endVersion > latest ? latest : query.endVersion
  return `${Buffer.from(address.buffer, address.byteOffset, address.byteLength).toString("hex")}/${query.startVersion}/${end}/${limit}`
}

interface PageCache {
  readonly clear: () => void
  readonly get: (info: LedgerInfo, id: string) => SummaryPage | undefined
  readonly set: (info: LedgerInfo, id: string, page: SummaryPage) => void
}

/**
 * Pages read at the current head, reused while it stays (wallets poll the same page): a page is a
 * pure function of the query and the head (the pruner only deletes below the head's window, which
 * no scan reaches), and callers get immutable records. A new latest or oldest version clears it;
 * at most `size` pages, the oldest dropped first; 0 = no cache.
 */
const makePageCache = (size: number): PageCache | undefined => {
  if (!(size > 0)) return undefined
  const pages = new Map<string, SummaryPage>()
  let latest = -1n
  let oldest = -1n
  const sync = (info: LedgerInfo) => {
    if (info.ledgerVersion === latest && info.oldestLedgerVersion === oldest) return
    pages.clear()
    latest = info.ledgerVersion
    oldest = info.oldestLedgerVersion
  }
  return {
    clear: () => {
      pages.clear()
      latest = -1n
    },
    get: (info, id) => {
      sync(info)
      return pages.get(id)
    },
    set: (info, id, page) => {
      sync(info)
      if (pages.size >= size) pages.delete(pages.keys().next().value as string)
      pages.set(id, page)
    }
  }
}

/** Absent = the maximum page size; above it = clamped; negative or fractional = treated as 0 / floored. */
export const clampLimit = (limit: number | undefined, maxPageSize: number): number => {
  if (limit === undefined || Number.isNaN(limit)) return maxPageSize
  return Math.max(0, Math.min(Math.floor(limit), maxPageSize))
}
