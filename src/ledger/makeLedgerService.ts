import * as Effect from "effect/Effect"
import * as Semaphore from "effect/Semaphore"
import type { AccountAddress } from "../domain/AccountAddress.js"
import type { LedgerInfo } from "../domain/LedgerInfo.js"
import { accumulatorRoot, appendLeaf, emptyAccumulator } from "../domain/MerkleAccumulator.js"
import { transactionInfoHash } from "../domain/TransactionInfoCodec.js"
import type {
  BlockInfo,
  LedgerMark,
  LedgerRewind,
  BlockToCommit,
  CommittedTransaction,
  EventQuery,
  LedgerService,
  StatePageQuery,
  StateReader,
  SummaryQuery,
  TransactionSummary,
  VersionedEvent
} from "./Ledger.js"
import type { LedgerBackend, LedgerHead } from "./LedgerBackend.js"
import {
  BlockNotFound,
  BlockPruned,
  type LedgerError,
  StorageError,
  TransactionNotFound,
  VersionNotFound,
  VersionPruned
} from "./LedgerError.js"
import { type CommittedBlockInput, prepareBlock, prepareBlocksAfter } from "./prepareBlock.js"
import { stateReaderAt } from "./stateReaderAt.js"

export interface LedgerServiceOptions {
  /** Keep the last N versions (block aligned); undefined or 0 keeps everything. */
  readonly pruneWindow?: bigint | number | undefined
  /** Chain id recorded with the first block when the ledger starts without a genesis blob. */
  readonly chainId?: number | undefined
  /** Entries deleted per commit while catching up with the pruning window (default 20,000). */
  readonly pruneBatch?: number | undefined
  /**
   * After a rewind, remove what the forgotten versions left in the store in slices between
   * commits (default true). Off: only the commits that write those versions again (and
   * `LedgerRewind.collectGarbage`) remove it (tests).
   */
  readonly collectInBackground?: boolean | undefined
}

const storage = (e: unknown): StorageError => new StorageError({ message: e instanceof Error ? e.message : String(e) })

/** Runs a synchronous backend call; a throw is a storage failure, never a client error. */
const attempt = <A>(f: () => A): Effect.Effect<A, StorageError> => Effect.try({ try: f, catch: storage })

const emptyLedger = new StorageError({
  message: "the ledger is empty: no genesis has been committed"
})

/**
 * Builds the `LedgerService` over a storage backend. Every check (versions above the latest,
 * below the pruning window, block heights) and all version/height assignment happen here, once,
 * so each backend only stores and reads.
 */
/** The service plus what the layers, genesis import and tests need besides it. */
export interface LedgerHandle {
  readonly service: LedgerService
  readonly head: () => LedgerHead | undefined
  /**
   * Appends several blocks in one atomic step (one write transaction and fsync on LMDB): the same
   * blocks as committing each in turn, the ledger always ending on a block; all or none.
   */
  readonly commitBlocks: (blocks: ReadonlyArray<BlockToCommit>) => Effect.Effect<ReadonlyArray<BlockInfo>, LedgerError>
  /** Commits the first block with the chain id genesis wrote (later blocks keep the stored one). */
  readonly commitGenesis: (block: BlockToCommit, chainId: number) => Effect.Effect<BlockInfo, LedgerError>
  /** Deletes up to `budget` pruned entries now; returns how many (0 = caught up). */
  readonly pruneStep: (budget: number) => number
  /** `LedgerBackend.close`: resolves once the store's commits in flight are done. */
  readonly close: () => void | Promise<void>
}

/** The local-testing chain id, used when a ledger starts without genesis and without an option. */
export const DEFAULT_CHAIN_ID = 4

export const makeLedgerService = (backend: LedgerBackend, options: LedgerServiceOptions = {}): LedgerHandle => {
  const window = options.pruneWindow === undefined ? undefined : BigInt(options.pruneWindow)
  const pruneBatch = options.pruneBatch ?? 20_000

  const head: Effect.Effect<LedgerHead, StorageError> = Effect.suspend(() => {
    const h = backend.head()
    return h === undefined ? Effect.fail(emptyLedger) : Effect.succeed(h)
  })

  /** A version readable now: not above the latest, not below the window. */
  const checkVersion = (h: LedgerHead, version: bigint): Effect.Effect<void, LedgerError> =>
    version > h.latestVersion
      ? Effect.fail(new VersionNotFound({ version }))
      : version < h.oldestVersion
        ? Effect.fail(new VersionPruned({ version }))
        : Effect.void

  // Every request reads the ledger info: built once per head (a commit replaces the head object),
  // so a read is one comparison and no allocation.
  let infoOf: LedgerHead | undefined
  let info: Effect.Effect<LedgerInfo> | undefined
  const ledgerInfo: Effect.Effect<LedgerInfo, StorageError> = Effect.suspend(() => {
    const h = backend.head()
    if (h === undefined) return Effect.fail(emptyLedger)
    if (h !== infoOf || info === undefined) {
      info = Effect.succeed({
        chainId: h.chainId,
        epoch: h.epoch,
        ledgerVersion: h.latestVersion,
        oldestLedgerVersion: h.oldestVersion,
        ledgerTimestampUsec: h.timestampUsec,
        blockHeight: h.latestHeight,
        oldestBlockHeight: h.oldestHeight
      })
      infoOf = h
    }
    return info
  })

  /**
   * The reader last made, handed out again while the same version is asked for (and no rewind
   * came between: its `generation`). Nearly every caller asks for the head's state — each
   * submission's admission and its answer, the block producer, reads — so this makes one reader a
   * block instead of one or two a request. A reader holds nothing of the state (it reads the
   * store at its version), so sharing one is safe. Under load a submission waits tens of
   * milliseconds for its verdict holding its reader, long enough for V8 to copy it into the old
   * generation: ~0.9 KB a transfer of what was promoted (docs/benchmarks.md, session 41).
   */
  let lastReader: StateReader | undefined
  const readerAt = (version: bigint): StateReader => {
    const last = lastReader
    if (last !== undefined && last.version === version && last.generation === (backend.truncations?.() ?? 0))
      return last
    lastReader = stateReaderAt(backend, version)
    return lastReader
  }

  const stateAt = (version: bigint) =>
    Effect.flatMap(head, (h) => Effect.as(checkVersion(h, version), readerAt(version)))

  const transactionByVersion = (version: bigint) =>
    Effect.flatMap(head, (h) =>
      Effect.flatMap(checkVersion(h, version), () =>
        Effect.flatMap(
          attempt(() => backend.transaction(version)),
          (t) =>
            t === undefined
              ? Effect.fail(
                  new StorageError({
                    message: `transaction ${version} is missing`
                  })
                )
              : Effect.succeed(t)
        )
      )
    )

  const transactionByHash = (hash: Uint8Array) =>
    Effect.flatMap(head, (h) =>
      Effect.flatMap(
        attempt(() => (hash.length === 32 ? backend.versionOfHash(hash) : undefined)),
        (version) =>
          // A hash below the window may linger until the pruner reaches it: it is gone all the same.
          version === undefined || version < h.oldestVersion || version > h.latestVersion
            ? Effect.fail(
                new TransactionNotFound({
                  query: `hash ${Buffer.from(hash).toString("hex")}`
                })
              )
            : transactionByVersion(version)
      )
    )

  const missing = (version: bigint) => new StorageError({ message: `transaction ${version} is missing` })

  /** Reads versions one by one (each is a point read in both stores); a hole is a storage failure. */
  // The loops below are functions made once and the thunks given to Effect only call them: V8
  // drops the optimized code of a closure made per call at every full collection (see
  // `attemptWrite` in src/indexer/store/IndexerStore.ts), and the indexer reads every transaction
  // through here.
  const transactionsAt = (versions: ReadonlyArray<bigint>): CommittedTransaction[] => {
    const out: CommittedTransaction[] = []
    for (const v of versions) {
      const t = backend.transaction(v)
      if (t === undefined) throw missing(v)
      out.push(t)
    }
    return out
  }
  const readTransactions = (versions: ReadonlyArray<bigint>) => attempt(() => transactionsAt(versions))

  /** The versions from `start` on, at most `limit`, up to the latest of `h`. */
  const versionsFrom = (h: LedgerHead, start: bigint, limit: number): bigint[] => {
    const versions: bigint[] = []
    for (let v = start; v <= h.latestVersion && versions.length < limit; v++) versions.push(v)
    return versions
  }

  const transactionsFrom = (start: bigint, limit: number) =>
    Effect.flatMap(head, (h) =>
      Effect.flatMap(checkVersion(h, start), () => readTransactions(versionsFrom(h, start, limit)))
    )

  /** `read` at each of `versions` (a store's in-place reader); a hole is a storage failure. */
  const readEach = <A>(read: (version: bigint) => A | undefined, versions: ReadonlyArray<bigint>) =>
    attempt(() => {
      const out: A[] = []
      for (const v of versions) {
        const a = read(v)
        if (a === undefined) throw missing(v)
        out.push(a)
      }
      return out
    })

  /** `transactionsFrom` as `TransactionOnChainData` BCS, from a store that has it as bytes. */
  const onChainBcs = backend.transactionOnChainBcs
  const transactionsBcsFrom =
    onChainBcs === undefined
      ? undefined
      : (start: bigint, limit: number) =>
          Effect.flatMap(head, (h) =>
            Effect.flatMap(checkVersion(h, start), () => readEach(onChainBcs, versionsFrom(h, start, limit)))
          )

  /** What the gas estimate reads of versions `first` to `last`, from a store that can read it in place. */
  const gasFacts = backend.transactionGasFacts
  const transactionsGasFacts =
    gasFacts === undefined
      ? undefined
      : (first: bigint, last: bigint) =>
          Effect.flatMap(head, (h) =>
            Effect.flatMap(checkVersion(h, first), () =>
              Effect.flatMap(checkVersion(h, last), () =>
                readEach(gasFacts, versionsFrom(h, first, Number(last - first + 1n)))
              )
            )
          )

  const accountTransactions = (sender: AccountAddress, startSequenceNumber: bigint, limit: number) =>
    Effect.flatMap(head, (h) =>
      limit > 0
        ? Effect.flatMap(
            attempt(() => backend.accountSequences(sender, startSequenceNumber, limit)),
            // Entries below the window may linger until the pruner reaches them: they are gone all the same.
            (found) => readTransactions(found.filter((s) => s.version >= h.oldestVersion).map((s) => s.version))
          )
        : Effect.succeed([])
    )

  const statePage = (version: bigint, query: StatePageQuery) =>
    Effect.flatMap(head, (h) =>
      Effect.flatMap(checkVersion(h, version), () => attempt(() => backend.statePage(version, query)))
    )

  const U64_MAX = (1n << 64n) - 1n
  const eventsByKey = (query: EventQuery) =>
    Effect.flatMap(head, (h): Effect.Effect<ReadonlyArray<VersionedEvent>, LedgerError> => {
      if (!(query.limit > 0)) return Effect.succeed([])
      const keep = (es: ReadonlyArray<VersionedEvent>) => es.filter((e) => e.version >= h.oldestVersion)
      return query.start === undefined
        ? attempt(() =>
            keep(backend.events(query.address, query.creationNumber, 0n, U64_MAX, query.limit, true))
              .slice()
              .reverse()
          )
        : attempt(() =>
            keep(backend.events(query.address, query.creationNumber, query.start!, U64_MAX, query.limit, false))
          )
    })

  const summariesBySender = (sender: AccountAddress, query: SummaryQuery) =>
    Effect.flatMap(head, (h): Effect.Effect<ReadonlyArray<TransactionSummary>, LedgerError> => {
      const { startVersion, endVersion, limit } = query
      if (startVersion !== undefined && startVersion < h.oldestVersion)
        return Effect.fail(new VersionPruned({ version: startVersion }))
      if (endVersion !== undefined && endVersion < h.oldestVersion)
        return Effect.fail(new VersionPruned({ version: endVersion }))
      if (!(limit > 0)) return Effect.succeed([])
      const top = endVersion !== undefined && endVersion < h.latestVersion ? endVersion : h.latestVersion
      if (startVersion !== undefined)
        return startVersion > top
          ? Effect.succeed([])
          : attempt(() => backend.summariesForward(sender, startVersion, top, limit))
      return attempt(() => backend.summariesBackward(sender, h.oldestVersion, top, limit).slice().reverse())
    })

  const blockByHeight = (height: bigint) =>
    Effect.flatMap(head, (h): Effect.Effect<BlockInfo, LedgerError> => {
      if (height > h.latestHeight) return Effect.fail(new BlockNotFound({ query: `height ${height}` }))
      if (height < h.oldestHeight) return Effect.fail(new BlockPruned({ height }))
      return Effect.flatMap(
        attempt(() => backend.block(height)),
        (b) =>
          b === undefined ? Effect.fail(new StorageError({ message: `block ${height} is missing` })) : Effect.succeed(b)
      )
    })

  const blockByVersion = (version: bigint) =>
    Effect.flatMap(head, (h) =>
      Effect.flatMap(checkVersion(h, version), () =>
        Effect.flatMap(
          attempt(() => backend.blockOfVersion(version)),
          (b) =>
            b === undefined
              ? Effect.fail(
                  new StorageError({
                    message: `no block holds version ${version}`
                  })
                )
              : Effect.succeed(b)
        )
      )
    )

  // One commit at a time: a block is prepared on the head the previous commit left, and an
  // asynchronous store's head moves only when its commit is durable.
  const commitPermit = Semaphore.makeUnsafe(1)
  const commitWith = (block: BlockToCommit, chainId: number | undefined): Effect.Effect<BlockInfo, LedgerError> =>
    Effect.flatMap(
      attempt(() => {
        const prepared = prepareBlock(backend.head(), block, {
          chainId: chainId ?? options.chainId ?? DEFAULT_CHAIN_ID,
          window,
          blockOfVersion: backend.blockOfVersion
        })
        return { block: prepared.block, durable: backend.commit(prepared, window === undefined ? 0 : pruneBatch) }
      }),
      ({ block, durable }): Effect.Effect<BlockInfo, StorageError> =>
        durable === undefined
          ? Effect.succeed(block)
          : Effect.as(Effect.tryPromise({ try: () => durable, catch: storage }), block)
    ).pipe(Semaphore.withPermit(commitPermit))

  const commitBlocks = (blocks: ReadonlyArray<BlockToCommit>): Effect.Effect<ReadonlyArray<BlockInfo>, LedgerError> =>
    Effect.flatMap(
      attempt(() => {
        const prepared = prepareBlocksAfter(backend.head(), blocks, {
          chainId: options.chainId ?? DEFAULT_CHAIN_ID,
          window,
          storedBlockOfVersion: backend.blockOfVersion
        })
        const budget = window === undefined ? 0 : pruneBatch
        const durable =
          prepared.length === 0
            ? undefined
            : backend.commitMany !== undefined
              ? backend.commitMany(prepared, budget)
              : prepared.reduce<void | Promise<void>>(
                  (previous, p) =>
                    previous instanceof Promise
                      ? previous.then(() => backend.commit(p, budget))
                      : backend.commit(p, budget),
                  undefined
                )
        return { infos: prepared.map((p) => p.block), durable }
      }),
      ({ infos, durable }): Effect.Effect<ReadonlyArray<BlockInfo>, StorageError> =>
        durable === undefined
          ? Effect.succeed(infos)
          : Effect.as(Effect.tryPromise({ try: () => durable, catch: storage }), infos)
    ).pipe(Semaphore.withPermit(commitPermit))

  const markOf = (h: LedgerHead): LedgerMark => ({
    version: h.latestVersion,
    height: h.latestHeight,
    timestampUsec: h.timestampUsec,
    epoch: h.epoch,
    head: h
  })

  const markAtHeight = (height: bigint): Effect.Effect<LedgerMark, LedgerError> =>
    Effect.flatMap(blockByHeight(height), (b) =>
      Effect.flatMap(
        head,
        (h): Effect.Effect<LedgerMark, LedgerError> =>
          h.oldestVersion > 0n
            ? Effect.fail(new VersionPruned({ version: 0n }))
            : attempt(() => {
                let accumulator = emptyAccumulator
                for (let v = 0n; v <= b.lastVersion; v++) {
                  const t = backend.transaction(v)
                  if (t === undefined) throw missing(v)
                  accumulator = appendLeaf("TransactionAccumulator", accumulator, transactionInfoHash(t.info))
                }
                return markOf({
                  ...h,
                  latestVersion: b.lastVersion,
                  latestHeight: b.height,
                  epoch: b.epoch,
                  timestampUsec: b.timestampUsec,
                  oldestVersion: 0n,
                  oldestHeight: 0n,
                  accumulator
                })
              })
      )
    )

  /** The versions this process's rewinds went back to, with the rewind count after each (bounded). */
  const rewound: Array<{ readonly count: number; readonly version: bigint }> = []

  const rewindTo = (mark: LedgerMark): Effect.Effect<void, LedgerError> => replaceAfter(mark, [])

  const replaceAfter = (
    mark: LedgerMark,
    blocks: ReadonlyArray<BlockToCommit | CommittedBlockInput>
  ): Effect.Effect<void, LedgerError> =>
    Effect.flatMap(head, (h): Effect.Effect<void, LedgerError> => {
      const target = mark.head as LedgerHead
      if (target.latestVersion > h.latestVersion)
        return Effect.fail(new VersionNotFound({ version: target.latestVersion }))
      if (target.latestVersion < h.oldestVersion)
        return Effect.fail(new VersionPruned({ version: target.latestVersion }))
      return attempt(() => {
        // A mark of this history: the accumulator it carries ends at the root recorded at its version.
        const at = backend.transaction(target.latestVersion)
        if (
          at === undefined ||
          Buffer.compare(accumulatorRoot("TransactionAccumulator", target.accumulator), at.accumulatorRootHash) !== 0
        )
          throw new StorageError({
            message: `the mark at version ${target.latestVersion} is not of this ledger's history (reverted past, or another chain)`
          })
        const prepared = prepareBlocksAfter(target, blocks, {
          chainId: target.chainId,
          window,
          storedBlockOfVersion: backend.blockOfVersion
        })
        backend.truncateAfter!(target, prepared)
        collectInBackground()
        rewound.push({ count: backend.truncations?.() ?? rewound.length + 1, version: target.latestVersion })
        if (rewound.length > 4096) rewound.splice(0, rewound.length - 4096)
      })
    }).pipe(Semaphore.withPermit(commitPermit))

  /** Versions' worth of a rewind's garbage removed per slice (~10 ms of work for transfers). */
  const GARBAGE_SLICE = 256
  const collectGarbage = (budget: number): Effect.Effect<number, LedgerError> =>
    backend.collectGarbage === undefined
      ? Effect.succeed(0)
      : Effect.flatMap(
          attempt(() => backend.collectGarbage!(budget)),
          (n): Effect.Effect<number, StorageError> =>
            typeof n === "number" ? Effect.succeed(n) : Effect.tryPromise({ try: () => n, catch: storage })
        ).pipe(Semaphore.withPermit(commitPermit))

  /**
   * After a rewind: the store's garbage removed in slices, each under the commit permit (commits
   * and further rewinds go between them), a timer turn apart. One loop at a time; it stops when
   * nothing is left or the store fails (closed): the commits remove what they write over anyway.
   */
  let collecting = false
  const collectInBackground = (): void => {
    if (backend.collectGarbage === undefined || collecting || options.collectInBackground === false) return
    collecting = true
    // A timer turn before each slice: the rewind's caller goes on first.
    const loop: Effect.Effect<void> = Effect.andThen(
      Effect.sleep(1),
      Effect.flatMap(collectGarbage(GARBAGE_SLICE), (n) => (n > 0 ? loop : Effect.void))
    ).pipe(Effect.ignore, Effect.ensuring(Effect.sync(() => (collecting = false))))
    Effect.runFork(loop)
  }

  const rewind: LedgerRewind | undefined =
    backend.truncateAfter === undefined
      ? undefined
      : {
          mark: Effect.map(head, markOf),
          markAtHeight,
          rewindTo,
          replaceAfter,
          rewinds: () => backend.truncations?.() ?? 0,
          collectGarbage,
          rewoundTo: (since) => {
            const now = backend.truncations?.() ?? 0
            if (now <= since) return undefined
            let low: bigint | undefined
            for (const r of rewound) if (r.count > since && (low === undefined || r.version < low)) low = r.version
            // Rewinds this process did not see (another process, or more than it keeps): from genesis.
            return rewound.length === 0 || rewound[0]!.count > since + 1 ? 0n : low
          }
        }

  const service: LedgerService = {
    ledgerInfo,
    stateAt,
    transactionByVersion,
    transactionByHash,
    summariesBySender,
    transactionsFrom,
    transactionsBcsFrom,
    transactionsGasFacts,
    accountTransactions,
    statePage,
    eventsByKey,
    blockByHeight,
    blockByVersion,
    commitBlock: (block) => commitWith(block, undefined),
    rewind
  }
  return {
    service,
    head: () => backend.head(),
    commitBlocks,
    commitGenesis: commitWith,
    pruneStep: (budget) => backend.pruneStep(budget),
    close: () => backend.close()
  }
}
