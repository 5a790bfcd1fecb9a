/**
 * The ledger service of a fork, over the service of its own store (`forkBackend`): history at or
 * below V (transactions, lists, an account's transactions and summaries, event streams, blocks) from the source
 * (`ForkHistory`); state below V as the source's at that version; the source's oldest version in
 * the ledger info; and no commit from a run that missed state (`StateMisses`).
 */
import * as Effect from "effect/Effect"
import type { LedgerInfo } from "../domain/LedgerInfo.js"
import type { BlockInfo, CommittedTransaction, LedgerService, StateReader } from "../ledger/Ledger.js"
import {
  BlockNotFound,
  type LedgerError,
  StorageError,
  TransactionNotFound,
  VersionPruned
} from "../ledger/LedgerError.js"
import type { ForkHistory } from "./ForkHistory.js"
import type { ForkIdentity } from "./ForkIdentity.js"
import type { ForkStateSource } from "./ForkStateSource.js"
import { hasMissed } from "./StateMisses.js"

/** The source's state at a version below V, as a reader (nothing local lies below V). */
const remoteReader = (source: ForkStateSource): StateReader => ({
  version: source.version,
  get: (keyBytes) => source.read(keyBytes)?.data,
  getVersioned: (keyBytes) => {
    const v = source.read(keyBytes)
    return v === undefined ? undefined : { value: v.data, version: source.version }
  },
  metadata: (keyBytes) => source.read(keyBytes)?.metadata
})

const historyError = (e: unknown) => new StorageError({ message: e instanceof Error ? e.message : String(e) })

/** The ledger service of a fork: history at or below V from the source; no commit from a run that missed. */
export const forkLedgerService = (
  service: LedgerService,
  history: ForkHistory,
  identity: ForkIdentity,
  afterCommit: () => void = () => {},
  sourceAt?: (version: bigint) => ForkStateSource,
  isLocal: (hashHex: string) => boolean = () => false
): LedgerService => {
  const V = identity.version
  const H = identity.height
  const fromSource = <A>(f: () => Promise<A | undefined>, notFound: () => LedgerError): Effect.Effect<A, LedgerError> =>
    Effect.flatMap(Effect.tryPromise({ try: f, catch: historyError }), (a) =>
      a === undefined ? Effect.fail(notFound()) : Effect.succeed(a)
    )
  // The oldest version and height are the source's: history down to them is answered (from the
  // source). Mapped once per ledger info object (readers cache by its identity).
  let lastInner: LedgerInfo | undefined
  let lastOuter: LedgerInfo | undefined
  const ledgerInfo = Effect.map(service.ledgerInfo, (info) => {
    if (info !== lastInner || lastOuter === undefined) {
      lastInner = info
      lastOuter = { ...info, oldestLedgerVersion: identity.oldestVersion, oldestBlockHeight: identity.oldestHeight }
    }
    return lastOuter
  })
  const sourceTransactions = (start: bigint, limit: number) =>
    Effect.tryPromise({
      try: async () => {
        const out: CommittedTransaction[] = []
        for (let v = start; v <= V && out.length < limit; v++) {
          const t = await history.transactionByVersion(v)
          if (t === undefined) throw new Error(`the fork source has no transaction ${v}`)
          out.push(t)
        }
        return out
      },
      catch: historyError
    })
  return {
    ...service,
    firstOwnVersion: V + 1n,
    // The store's bytes are the fork's own versions only: the rest is read from the source.
    transactionsBcsFrom: undefined,
    transactionsGasFacts: undefined,
    ledgerInfo,
    stateAt: (version) =>
      version >= V || sourceAt === undefined
        ? service.stateAt(version)
        : version < identity.oldestVersion
          ? Effect.fail(new VersionPruned({ version }))
          : Effect.succeed(remoteReader(sourceAt(version))),
    transactionsFrom: (start, limit) =>
      start > V
        ? service.transactionsFrom(start, limit)
        : Effect.flatMap(sourceTransactions(start, limit), (older) =>
            older.length >= limit
              ? Effect.succeed(older)
              : Effect.map(
                  Effect.catchTag(service.transactionsFrom(V + 1n, limit - older.length), "VersionNotFound", () =>
                    Effect.succeed([] as ReadonlyArray<CommittedTransaction>)
                  ),
                  (newer) => [...older, ...newer]
                )
          ),
    // A stream's events at or below V from the source, then the fork's own (sequence numbers continue).
    eventsByKey: (query) =>
      query.start === undefined
        ? Effect.flatMap(service.eventsByKey(query), (mine) =>
            mine.length >= query.limit
              ? Effect.succeed(mine)
              : Effect.map(
                  Effect.tryPromise({
                    try: () =>
                      history.eventsByKey(query.address, query.creationNumber, undefined, query.limit - mine.length),
                    catch: historyError
                  }),
                  (older) => [...older, ...mine]
                )
          )
        : Effect.flatMap(
            Effect.tryPromise({
              try: () => history.eventsByKey(query.address, query.creationNumber, query.start, query.limit),
              catch: historyError
            }),
            (older) =>
              older.length >= query.limit
                ? Effect.succeed(older)
                : Effect.map(service.eventsByKey({ ...query, limit: query.limit - older.length }), (newer) => [
                    ...older,
                    ...newer
                  ])
          ),
    // The sender's transactions at or below V from the source, then the fork's own.
    accountTransactions: (sender, start, limit) =>
      Effect.flatMap(
        Effect.tryPromise({ try: () => history.accountTransactions(sender, start, limit), catch: historyError }),
        (older) =>
          older.length >= limit
            ? Effect.succeed(older)
            : Effect.map(service.accountTransactions(sender, start, limit - older.length), (newer) => [
                ...older,
                ...newer
              ])
      ),
    // The sender's summaries at or below V from the source, the fork's own above (both ascending).
    summariesBySender: (sender, query) => {
      const { startVersion: start, endVersion: end, limit } = query
      if (!(limit > 0)) return service.summariesBySender(sender, query)
      const older = (from: bigint | undefined, upTo: bigint, n: number) =>
        Effect.tryPromise({ try: () => history.summariesBySender(sender, from, upTo, n), catch: historyError })
      if (start !== undefined) {
        if (start > V) return service.summariesBySender(sender, query)
        return Effect.flatMap(older(start, end ?? V, limit), (before) =>
          before.length >= limit || (end !== undefined && end <= V)
            ? Effect.succeed(before)
            : Effect.map(
                service.summariesBySender(sender, {
                  startVersion: V + 1n,
                  endVersion: end,
                  limit: limit - before.length
                }),
                (mine) => [...before, ...mine]
              )
        )
      }
      if (end !== undefined && end <= V) return older(undefined, end, limit)
      return Effect.flatMap(service.summariesBySender(sender, query), (mine) =>
        mine.length >= limit
          ? Effect.succeed(mine)
          : Effect.map(older(undefined, V, limit - mine.length), (before) => [...before, ...mine])
      )
    },
    transactionByVersion: (version) =>
      version <= V
        ? fromSource(
            () => history.transactionByVersion(version),
            () => new TransactionNotFound({ query: `version ${version}` })
          )
        : service.transactionByVersion(version),
    transactionByHash: (hash) =>
      Effect.catchTag(service.transactionByHash(hash), "TransactionNotFound", (e) =>
        // One that went through this fork's mempool (discarded, expired) is not the source's.
        isLocal(Buffer.from(hash).toString("hex"))
          ? Effect.fail(e)
          : fromSource<CommittedTransaction>(
              () => history.transactionByHash(hash),
              () => e
            )
      ),
    blockByHeight: (height) =>
      height <= H
        ? fromSource<BlockInfo>(
            () => history.blockByHeight(height),
            () => new BlockNotFound({ query: `height ${height}` })
          )
        : service.blockByHeight(height),
    blockByVersion: (version) =>
      version <= V
        ? fromSource<BlockInfo>(
            () => history.blockByVersion(version),
            () => new BlockNotFound({ query: `version ${version}` })
          )
        : service.blockByVersion(version),
    commitBlock: (block) =>
      hasMissed()
        ? Effect.fail(
            new StorageError({
              message: "fork: the block read state not fetched yet; it is executed again once fetched"
            })
          )
        : Effect.tap(service.commitBlock(block), () => Effect.sync(afterCommit))
  }
}
