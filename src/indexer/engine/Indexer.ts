/**
 * The `Indexer` service: keeps the index (`IndexerStore`) level with the ledger. A fiber reads the
 * committed blocks after the stored position, runs the pipeline (the processors) and commits each
 * batch — rows, position and `processor_status` — in one store transaction; it wakes on every
 * `BlockCommitted` (draining the subscription at once, so the chain never waits for it) and polls
 * once a second besides. It never holds the chain or the REST API back: a failed batch is retried
 * (with a pause), and only GraphQL answers wait, boundedly, for the index (`waitFor`).
 *
 * At start it checks that the stored index belongs to this ledger (the version it reached exists
 * and has the hash it recorded, same chain id); if not — `--fresh`, another chain — it drops the
 * index and re-indexes from version 0.
 *
 * When the chain goes back (a `Rewound` event, or a ledger found shorter than the index), the index
 * goes back with it: once the chain has taken a snapshot (a `Marked` event) each batch also records
 * how to take it back (`../store/undoLog.ts`), and the index returns to the newest batch end whose
 * transaction accumulator root the ledger still has — where the two agree on all history — and
 * indexes on from there: time in proportion to the versions reverted. Without such a point (no
 * snapshot taken in this process, a load of another history) it is rebuilt from version 0, as
 * `reindex` asks.
 *
 * The loop itself (`followLedger`) runs in two places: on the chain's own thread (`Indexer.layer`,
 * for a ledger in memory) or in the indexer's worker thread (`../worker/`, for a ledger in a data
 * directory), which reads the same LMDB store and reports its progress to `IndexerThread`.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Latch from "effect/Latch"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import { toHex0x } from "../../bcs/index.js"
import { ChainEvents } from "../../chain/ChainEvents.js"
import { Ledger, type LedgerService } from "../../ledger/Ledger.js"
import { IndexerStore, type IndexerStoreService, type IndexReads } from "../store/IndexerStore.js"
import type { UndoPoint } from "../store/undoLog.js"
import { gatherPlan } from "./gatherPolicy.js"
import type { BatchResult, Pipeline } from "./Pipeline.js"

export interface IndexerHealth {
  readonly state: "starting" | "catching-up" | "caught-up" | "failing"
  /** The last version indexed (−1 before genesis). */
  readonly indexedVersion: bigint
  readonly lastError: string | undefined
  /** Batches and transactions indexed since start. */
  readonly batches: number
  readonly transactions: number
  /** Rewinds followed by taking batches back (the undo log), and rebuilds from version 0, since start. */
  readonly rewindsUndone: number
  readonly rebuilds: number
}

export interface IndexerService {
  /** Reads of the index (the GraphQL compiler's statements). */
  readonly store: IndexReads
  readonly health: Effect.Effect<IndexerHealth>
  /**
   * Waits until the index reaches `version` or `timeoutMs` passes; true when it reached it.
   * GraphQL requests wait for the ledger version current when they arrived (read-after-write).
   */
  readonly waitFor: (version: bigint, timeoutMs: number) => Effect.Effect<boolean>
  /** Drops the index and re-indexes from version 0 (a chain revert). */
  readonly reindex: Effect.Effect<void>
}

export interface IndexerOptions {
  readonly pipeline: Pipeline
  /** Transactions per store transaction while catching up (whole blocks). */
  readonly maxBatchTransactions?: number
  /** The longest wait for a second block under a flood (`gatherPolicy.ts`; tests change it). */
  readonly gatherMaxWaitMs?: number
  /** The longest wait for more blocks after a batch below a full block (`gatherPolicy.ts`; tests change it). */
  readonly trickleGatherMs?: number
  /**
   * The first version the index holds (default 0: the chain's genesis). A fork's index starts at
   * its first block of its own: the history before it is its source's (and its source's indexer's).
   */
  readonly firstVersion?: bigint | undefined
}

const RETRY_PAUSE_MS = 1_000
/**
 * Undo points looked at when going back, newest first: a test suite's revert finds its point among
 * the first few (its snapshot's version, or the batch end just below it); a rewind further back
 * than this many batches is rebuilt instead, bounding the ledger reads a rewind makes.
 */
const UNDO_POINTS_LOOKED_AT = 64
const POLL_MS = 1_000
/**
 * How long after its last commit, with nothing new, the indexer counts as quiet and lets the store
 * settle (`IndexerStore.settle`: SQLite's write-ahead log folded in). Under load blocks come every
 * few milliseconds and it never waits this long; an idle chain's block a second settles after each.
 */
const QUIET_MS = 300

export class Indexer extends Context.Service<Indexer, IndexerService>()("movenode/indexer/Indexer") {
  /** The indexer on this thread, woken by the chain's events (a ledger in memory: no other thread can read it). */
  static readonly layer = (options: IndexerOptions): Layer.Layer<Indexer, never, IndexerStore | Ledger | ChainEvents> =>
    Layer.effect(Indexer, makeIndexer(options))
}

/** What drives a `followLedger` loop from outside, and what it reports. */
export interface LedgerFollower {
  readonly health: Effect.Effect<IndexerHealth>
  readonly waitFor: (version: bigint, timeoutMs: number) => Effect.Effect<boolean>
  /** New blocks were committed: look now instead of at the next poll. */
  readonly wake: Effect.Effect<void>
  /**
   * Someone (in another thread) waits for the index to reach `version`: index what there is at
   * once, without gathering blocks (`gatherPolicy.ts`), until it is reached.
   */
  readonly hurry: (version: bigint) => Effect.Effect<void>
  /** Drop the index and re-index from version 0 before the next batch (`reindex`). */
  readonly requestReset: Effect.Effect<void>
  /**
   * The ledger went back (a revert, a reset, a load): before the next batch, go back to where the
   * index and the ledger agree (the undo log), or rebuild from version 0.
   */
  readonly requestRewind: Effect.Effect<void>
  /** From the next batch on, record how to take each back (the chain took a snapshot). */
  readonly keepUndo: Effect.Effect<void>
  /** Resets and rewinds done so far (asked for, or found needed: another ledger, a ledger gone back). */
  readonly resetsDone: () => number
  /**
   * Resets and rewinds started so far, numbered from 1 as they start (`onProgress` reports the
   * number of the last one done). A request made now is covered by the next to start, number
   * `goBacksStarted() + 1`: one under way began before it (`resetAcknowledgement.ts`).
   */
  readonly goBacksStarted: () => number
}

export interface FollowOptions extends IndexerOptions {
  /** Called before every look at the ledger (a reader in another thread renews its snapshot). */
  readonly beforeStep?: (() => void) | undefined
  /**
   * Called once a batch is read, before its rows are stored: a reader in another thread lets its
   * snapshot go, which the store's commit (its fsync, a checkpoint) would otherwise hold for
   * milliseconds while the chain commits (`src/ledger/snapshotBound.ts`).
   */
  readonly afterRead?: (() => void) | undefined
  /**
   * How many times the ledger was rewound so far, as of the last `beforeStep` (a reader in another
   * thread counts the store's truncations). A batch that fails while it moves failed because the
   * chain went back under it (a revert, a reset, a load racing the batch's reads): that is retried
   * at once and quietly, not reported as a failure.
   */
  readonly rewinds?: (() => number) | undefined
  /**
   * Called whenever the health changed (a batch committed, a reset done, a failure), with the
   * number of the last reset or rewind done (`LedgerFollower.goBacksStarted`; 0: none yet).
   */
  readonly onProgress?: ((health: IndexerHealth, lastGoBackDone: number) => void) | undefined
  /** Called at every look at the ledger with its last version and the index's. */
  readonly onLook?: ((ledgerVersion: bigint, indexedVersion: bigint) => void) | undefined
  /**
   * Asked before this follower started (a restarted worker: the chain took a snapshot, asked a
   * reset, before it): batches record their undo from the first (`keepUndo`), and the first look
   * at the ledger does the reset or rewind (`goBackFirst`) — as if asked at once, before any step.
   */
  readonly keepUndo?: boolean | undefined
  readonly goBackFirst?: "reset" | "rewind" | undefined
}

/**
 * The indexing loop over `store` and `ledger`, forked in the current scope: reads the blocks after
 * the stored position, runs the pipeline and commits batch by batch, waking on `wake` and once a
 * second besides.
 */
export const followLedger = (
  store: IndexerStoreService,
  ledger: LedgerService,
  options: FollowOptions
): Effect.Effect<LedgerFollower, never, Scope.Scope> =>
  Effect.gen(function* () {
    const { pipeline } = options
    const maxBatch = options.maxBatchTransactions ?? 500
    const firstVersion = options.firstVersion ?? 0n
    /** `indexed` of an index holding nothing. */
    const nothing = firstVersion - 1n

    let indexed = nothing
    let state: IndexerHealth["state"] = "starting"
    let lastError: string | undefined
    let batches = 0
    let transactions = 0
    let resetRequested = options.goBackFirst === "reset"
    let rewindRequested = options.goBackFirst === "rewind"
    /** A reset or rewind asked before is under way (another may be asked meanwhile). */
    let goingBack = false
    /** The last step failed in a reset or rewind itself (the store's fault, not a race: paused, not spun). */
    let goingBackFailed = false
    let resetsDone = 0
    let rewindsUndone = 0
    let rebuilds = 0
    /** Whether batches record their undo (`../store/undoLog.ts`): once the chain took a snapshot. */
    let keeping = options.keepUndo ?? false
    /** The undo point at `indexed`, when known (this follower committed or checked that version). */
    let indexedPoint: UndoPoint | undefined
    /** What a reader may count on: nothing while a reset or rewind is pending (the rows may be of versions rewound). */
    const reached = () => (resetRequested || rewindRequested || goingBack ? -1n : indexed)
    const health = (): IndexerHealth => ({
      state,
      indexedVersion: reached(),
      lastError,
      batches,
      transactions,
      rewindsUndone,
      rebuilds
    })
    /** Resets and rewinds started (each numbered as it starts), and the number of the last one done. */
    let goBacksStarted = 0
    let lastGoBackDone = 0
    const report = () => options.onProgress?.(health(), lastGoBackDone)
    const waiters = new Set<{ readonly version: bigint; readonly resume: () => void }>()
    const release = () => {
      for (const w of waiters)
        if (w.version <= reached()) {
          waiters.delete(w)
          w.resume()
        }
    }
    const wake = yield* Latch.make(false)
    /** The highest version someone in another thread waits for (`hurry`). */
    let hurryUntil = -1n
    const someoneWaits = () => waiters.size > 0 || reached() < hurryUntil

    /**
     * After a batch of `lastBatch` transactions: wait (boundedly) for more blocks so that the next
     * store transaction takes them together (`gatherPolicy.ts`); not while someone waits, nor once a
     * reset is asked (a revert is indexed at once).
     */
    // One generator function for every batch (docs/architecture.md, "Hot loops live in functions made once").
    const gather = Effect.fnUntraced(function* (lastBatch: number) {
      const plan = gatherPlan(lastBatch, maxBatch, options.gatherMaxWaitMs, options.trickleGatherMs)
      if (plan === undefined) return
      const want = plan.versions
      const deadline = performance.now() + plan.maxWaitMs
      while (!someoneWaits() && !resetRequested) {
        const left = deadline - performance.now()
        if (left <= 0) return
        // Closed before looking, so a block committed after the look still opens it.
        yield* wake.close
        options.beforeStep?.()
        const head = yield* Effect.option(ledger.ledgerInfo)
        if (head._tag === "None" || head.value.ledgerVersion - indexed >= want) return
        yield* Effect.raceFirst(wake.await, Effect.sleep(left))
      }
    })

    /** Whether the stored index is this ledger's (its last version exists here with the same hash). */
    const belongsHere = (l: LedgerService) =>
      Effect.gen(function* () {
        const position = yield* store.position
        if (position === undefined) return { keep: true, next: firstVersion }
        const info = yield* l.ledgerInfo
        if (position.version > info.ledgerVersion || position.version < nothing || position.chainId !== info.chainId)
          return { keep: false, next: firstVersion, stored: position.version }
        // Genesis is not read back (decoding its write set, the whole framework, costs a start
        // hundreds of milliseconds): the schema hash names the genesis parameters and the code, so an
        // index of another genesis was already dropped. A pruned version cannot be checked either;
        // the chain id and length matched.
        if (position.version === 0n) return { keep: true, next: 1n, point: undefined }
        const t = yield* Effect.result(l.transactionByVersion(position.version))
        if (t._tag === "Success" && toHex0x(t.success.hash) !== position.hash)
          return { keep: false, next: firstVersion, point: undefined, stored: position.version }
        const point: UndoPoint | undefined =
          t._tag === "Success"
            ? {
                version: position.version,
                hash: position.hash,
                timestampUsec: position.timestampUsec,
                accumulator: toHex0x(t.success.accumulatorRootHash)
              }
            : undefined
        return { keep: true, next: position.version + 1n, point }
      })

    const start = Effect.gen(function* () {
      options.beforeStep?.()
      const verdict = yield* belongsHere(ledger)
      if (verdict.keep) {
        // An undo log of an earlier run does not cover what was indexed since without one; a
        // follower that keeps undo from the start continues one that kept it all along (a
        // restarted worker of this chain).
        if (!keeping) yield* store.dropUndo
        indexed = verdict.next - 1n
        indexedPoint = verdict.point
      } else if (keeping && verdict.stored !== undefined) {
        // The chain went back while no follower watched (the worker restarting): back by the undo
        // log if it reaches (`goBack` checks each point against the ledger), else rebuilt.
        indexed = verdict.stored
        indexedPoint = undefined
        rewindRequested = true
      } else {
        yield* store.reset
        indexed = nothing
        indexedPoint = undefined
      }
      release()
      report()
    })

    const reset = Effect.gen(function* () {
      yield* store.reset
      indexed = nothing
      indexedPoint = undefined
      resetsDone++
      rebuilds++
    })

    /** `effect` with readers counting the index as empty meanwhile; `again` asks for it again if it fails. */
    const whileGoingBack = <E>(effect: Effect.Effect<void, E>, again: () => void) => {
      // Numbered here, as the caller clears the request it serves (no request slips in between).
      const number = ++goBacksStarted
      return Effect.suspend(() => {
        goingBack = true
        return effect.pipe(
          Effect.tap(() =>
            Effect.sync(() => {
              lastGoBackDone = number
            })
          ),
          Effect.onError(() =>
            Effect.sync(() => {
              goingBackFailed = true
              again()
            })
          ),
          Effect.ensuring(
            Effect.sync(() => {
              goingBack = false
            })
          )
        )
      })
    }

    /**
     * After the ledger went back to (at most) `ledgerVersion`: back to the newest undo point at or
     * below it whose accumulator root the ledger has (its history up to there is the index's), or
     * rebuilt from version 0. Points are looked at newest first, a bounded number of them.
     */
    const goBack = (ledgerVersion: bigint) =>
      Effect.gen(function* () {
        if (keeping && indexed > nothing) {
          const atMost = ledgerVersion < indexed ? ledgerVersion : indexed
          for (const point of yield* store.undoPoints(atMost, UNDO_POINTS_LOOKED_AT)) {
            const t = yield* Effect.result(ledger.transactionByVersion(point.version))
            if (t._tag !== "Success" || toHex0x(t.success.accumulatorRootHash) !== point.accumulator) continue
            if (point.version < indexed) yield* store.goBackTo(point)
            indexed = point.version
            indexedPoint = point
            resetsDone++
            rewindsUndone++
            return
          }
        }
        yield* reset
      })

    /**
     * Genesis's batch (version 0, a block of its own) as this follower first made it: after a reset
     * it is committed again rather than made anew — decoding genesis's write set (the whole
     * framework) was most of what a test suite's revert cost the index (27–94 ms of a 42-version
     * chain's 28–94, session 36). A ledger's genesis never changes under its follower: a rewind
     * stops above it, a load keeps it (a dump of another genesis is refused).
     */
    let genesisBatch: BatchResult | undefined
    const genesis = Effect.suspend(() =>
      genesisBatch !== undefined
        ? Effect.succeed(genesisBatch)
        : Effect.tap(pipeline.batch(ledger, 0n, 1), (r) =>
            Effect.sync(() => {
              if (r?.lastVersion === 0n) genesisBatch = r
            })
          )
    )

    const step = Effect.gen(function* () {
      options.beforeStep?.()
      if (resetRequested) {
        // Cleared first: a request made while this one is done is done after it. A failure asks again.
        resetRequested = false
        rewindRequested = false
        yield* whileGoingBack(reset, () => {
          resetRequested = true
        })
        report()
      }
      const info = yield* ledger.ledgerInfo
      options.onLook?.(info.ledgerVersion, indexed)
      if (rewindRequested || info.ledgerVersion < indexed) {
        // The ledger went back (a revert, a reset, a load; or one whose event is still on its way).
        rewindRequested = false
        yield* whileGoingBack(goBack(info.ledgerVersion), () => {
          rewindRequested = true
        })
        report()
      }
      if (indexed >= info.ledgerVersion) {
        if (state !== "caught-up") {
          state = "caught-up"
          report()
        }
        return false
      }
      state = "catching-up"
      const result = indexed === -1n ? yield* genesis : yield* pipeline.batch(ledger, indexed + 1n, maxBatch)
      options.afterRead?.()
      if (result === undefined) return false
      const point: UndoPoint | undefined =
        result.lastAccumulatorRoot === undefined
          ? undefined
          : {
              version: result.lastVersion,
              hash: result.lastHash,
              timestampUsec: result.lastTimestampUsec,
              accumulator: result.lastAccumulatorRoot
            }
      // A batch that cannot be taken back ends the log: no point before it may be gone back to.
      if (keeping && point === undefined) yield* store.dropUndo
      yield* store.commit(
        result.writes,
        {
          version: result.lastVersion,
          hash: result.lastHash,
          timestampUsec: result.lastTimestampUsec,
          chainId: info.chainId
        },
        pipeline.processorNames,
        keeping && point !== undefined ? { from: indexedPoint, to: point } : undefined
      )
      indexed = result.lastVersion
      indexedPoint = point
      batches++
      transactions += result.transactions
      lastError = undefined
      release()
      report()
      return true
    })

    /** Commits since the store last settled. */
    let unsettled = false
    const loop = Effect.gen(function* () {
      yield* start.pipe(
        Effect.catchCause((cause) =>
          Effect.sync(() => {
            lastError = `start: ${String(cause).slice(0, 500)}`
            report()
          })
        )
      )
      while (true) {
        yield* wake.close
        const transactionsBefore = transactions
        const rewindsBefore = options.rewinds?.()
        const progressed = yield* step.pipe(
          Effect.catchCause((cause) =>
            Effect.gen(function* () {
              options.beforeStep?.()
              const raced = !goingBackFailed
              goingBackFailed = false
              if (
                raced &&
                (resetRequested ||
                  rewindRequested ||
                  (rewindsBefore !== undefined && options.rewinds?.() !== rewindsBefore))
              ) {
                // The ledger went back under the batch (its reads found versions or blocks gone):
                // the next step sees the rewind (a reset asked, or a ledger shorter than the index).
                yield* Effect.logDebug(
                  `indexer: a batch raced a rewind of the ledger; retried: ${String(cause).slice(0, 200)}`
                )
                return "retry" as const
              }
              state = "failing"
              lastError = String(cause).slice(0, 1000)
              report()
              yield* Effect.logWarning(`indexer: a batch failed and will be retried: ${lastError.slice(0, 300)}`)
              yield* Effect.sleep(RETRY_PAUSE_MS)
              return false
            })
          )
        )
        if (progressed === "retry") yield* Effect.yieldNow
        else if (progressed) {
          unsettled = true
          yield* gather(transactions - transactionsBefore)
          yield* Effect.yieldNow
        } else if (unsettled) {
          const woken = yield* Effect.raceFirst(Effect.as(wake.await, true), Effect.as(Effect.sleep(QUIET_MS), false))
          if (!woken) {
            unsettled = false
            yield* store.settle.pipe(
              Effect.catchCause((cause) =>
                Effect.logWarning(`indexer: settling the store failed: ${String(cause).slice(0, 300)}`)
              )
            )
            yield* Effect.raceFirst(wake.await, Effect.sleep(POLL_MS - QUIET_MS))
          }
        } else yield* Effect.raceFirst(wake.await, Effect.sleep(POLL_MS))
      }
    })

    const fiber = yield* Effect.forkScoped(loop)
    yield* Effect.addFinalizer(() => Fiber.interrupt(fiber))

    return {
      health: Effect.sync(health),
      // A wait also wakes the loop: one gathering blocks stops waiting for the next (`gather`).
      waitFor: (version, timeoutMs) =>
        Effect.andThen(version > reached() ? wake.open : Effect.void, waitUntil(waiters, reached, version, timeoutMs)),
      wake: wake.open,
      hurry: (version) =>
        Effect.andThen(
          Effect.sync(() => {
            if (version > hurryUntil) hurryUntil = version
          }),
          wake.open
        ),
      requestReset: Effect.andThen(
        Effect.sync(() => {
          resetRequested = true
        }),
        wake.open
      ),
      requestRewind: Effect.andThen(
        Effect.sync(() => {
          rewindRequested = true
        }),
        wake.open
      ),
      keepUndo: Effect.sync(() => {
        keeping = true
      }),
      resetsDone: () => resetsDone,
      goBacksStarted: () => goBacksStarted
    } satisfies LedgerFollower
  })

/**
 * Waits (at most `timeoutMs`) until `reached()` is at least `version`; the waiter is resumed by
 * whoever advances `reached` and then resumes the waiters of `waiters` it now satisfies.
 */
export const waitUntil = (
  waiters: Set<{ readonly version: bigint; readonly resume: () => void }>,
  reached: () => bigint,
  version: bigint,
  timeoutMs: number
): Effect.Effect<boolean> =>
  version <= reached()
    ? Effect.succeed(true)
    : Effect.callback<boolean>((resume) => {
        const waiter = {
          version,
          resume: () => {
            clearTimeout(timer)
            resume(Effect.succeed(true))
          }
        }
        const timer = setTimeout(() => {
          waiters.delete(waiter)
          resume(Effect.succeed(version <= reached()))
        }, timeoutMs)
        waiters.add(waiter)
        return Effect.sync(() => {
          clearTimeout(timer)
          waiters.delete(waiter)
        })
      })

/** The in-thread indexer: `followLedger` woken by the chain's `BlockCommitted`, reset by `Rewound`. */
export const makeIndexer = (options: IndexerOptions) =>
  Effect.gen(function* () {
    const store = yield* IndexerStore
    const ledger = yield* Ledger
    const events = yield* ChainEvents
    const follower = yield* followLedger(store, ledger, options)
    // Drain block notifications at once (the chain's PubSub waits for a full subscriber). A rewind
    // of the chain (issue 21's `Rewound`: versions above some point are gone) takes the index back;
    // a snapshot (`Marked`) makes batches keep their undo from then on.
    const subscription = yield* events.ledgerSubscription
    yield* Effect.forkScoped(
      Effect.forever(
        Effect.flatMap(subscription, (event) =>
          event._tag === "Rewound"
            ? follower.requestRewind
            : event._tag === "Marked"
              ? follower.keepUndo
              : follower.wake
        )
      )
    )
    return Indexer.of({
      store,
      health: follower.health,
      waitFor: follower.waitFor,
      reindex: follower.requestReset
    })
  })
