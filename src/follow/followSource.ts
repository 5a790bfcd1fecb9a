/**
 * The follower loop: ask the source for the block after this ledger's latest version, check and
 * commit it (`applySourceBlock`), repeat. It starts from the source's genesis on an empty ledger and
 * from where it stopped otherwise, after checking the source still holds the same history (its
 * transaction at this ledger's latest version has the accumulator root this ledger recorded).
 *
 *   ┌───────────── Ahead (source not there yet): long poll / sleep `pollMs` ─┐
 *   ▼                                                                       │
 *   blockAt(next) ──Block──► check each transaction ─► commit block ─► next ─┘
 *        │                      │ a failed check: SourceInvalid / SourceDiverged → stop (fail)
 *        └── SourceUnavailable: back off (100 ms doubling to 2 s), keep serving what it holds
 *
 * While catching up, the next block is fetched while the current one commits (its fsync).
 * The loop fails only with `SourceInvalid` or `SourceDiverged`; it runs until interrupted otherwise.
 */
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import type { LedgerHandle } from "../ledger/makeLedgerService.js"
import { applySourceBlock } from "./applySourceBlock.js"
import type { BlockAnswer, FeedClient } from "./FeedClient.js"
import { type FollowError, SourceDiverged, type SourceInvalid, type SourceUnavailable } from "./FollowError.js"
import type { FollowerStatus } from "./FollowerStatus.js"
import type { BlockInfo } from "../ledger/Ledger.js"

export interface FollowOptions {
  /** How long a movenode source may hold a request for a block it does not have yet (default 1,000 ms). */
  readonly longPollMs?: number | undefined
  /** The pause after the source answered "not yet" at once (a source without long polls; default 20 ms). */
  readonly pollMs?: number | undefined
  /** Called after each committed block (wakes waiters; the harness's lag probe). */
  readonly onApplied?: ((block: BlockInfo) => void) | undefined
  readonly log?: ((line: string) => void) | undefined
  /** A block applied this late (ms after its timestamp) while following is logged (default 1,000). */
  readonly slowBlockMs?: number | undefined
}

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString("hex")}`
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b))

/**
 * On a ledger holding something: the source's transaction at our latest version must carry the
 * accumulator root we stored for it (which commits to every earlier version too). A source that has
 * not reached our version yet must at least hold our genesis.
 */
export const checkSameHistory = (ledger: LedgerHandle, feed: FeedClient): Effect.Effect<void, FollowError> =>
  Effect.gen(function* () {
    const head = ledger.head()
    if (head === undefined) return
    const ours = yield* Effect.orDie(ledger.service.transactionByVersion(head.latestVersion))
    const theirs = yield* feed.transactionAt(head.latestVersion)
    if (theirs !== undefined) {
      if (!same(theirs.accumulatorRootHash, ours.accumulatorRootHash))
        return yield* new SourceDiverged({
          message: `the source ${feed.url} holds another history than this follower's data directory: at version ${head.latestVersion} its accumulator root is ${hex(theirs.accumulatorRootHash)}, this follower's is ${hex(ours.accumulatorRootHash)} (a source restarted with a new chain, or another chain): start the follower in a new data directory`
        })
      return
    }
    const genesis = yield* feed.transactionAt(0n)
    if (genesis !== undefined && !same(genesis.info.transactionHash, head.genesisHash))
      return yield* new SourceDiverged({
        message: `the source ${feed.url} has another genesis (${hex(genesis.info.transactionHash)}) than this follower's data directory (${hex(head.genesisHash)}): start the follower in a new data directory`
      })
  })

/** Runs the follower loop (see the module comment). */
export const followSource = (
  ledger: LedgerHandle,
  feed: FeedClient,
  status: FollowerStatus,
  options: FollowOptions = {}
): Effect.Effect<never, SourceInvalid | SourceDiverged> => {
  const longPollMs = options.longPollMs ?? 1000
  const pollMs = options.pollMs ?? 20
  const nextVersion = () => {
    const h = ledger.head()
    return h === undefined ? 0n : h.latestVersion + 1n
  }
  let backoffMs = 0
  let lastSlowLog = 0
  // Whether it has been level with the source once (before that, old blocks are late by nature).
  let following = false
  const slowMs = options.slowBlockMs ?? 1000

  const unavailable = (e: SourceUnavailable) =>
    Effect.gen(function* () {
      backoffMs = Math.min(2000, Math.max(100, backoffMs * 2))
      status.setState("source_unavailable", e.message)
      options.log?.(`follow: ${e.message}; retrying in ${backoffMs} ms`)
      yield* Effect.sleep(backoffMs)
    })

  /** Commits `answer`'s block while the one after it is fetched, when the source holds more. */
  const step = (answer: BlockAnswer) =>
    Effect.gen(function* () {
      if (answer._tag === "Ahead") {
        following = true
        status.sawSource(answer.head.ledgerVersion, answer.head.ledgerTimestampUsec)
        status.caughtUp(Date.now())
        status.setState("following")
        return undefined
      }
      const block = answer.block
      status.sawSource(answer.head.ledgerVersion, answer.head.ledgerTimestampUsec)
      const more = answer.head.ledgerVersion !== undefined && answer.head.ledgerVersion > block.lastVersion
      const next = more ? yield* Effect.forkChild(feed.blockAt(block.lastVersion + 1n, 0)) : undefined
      const applyStart = Date.now()
      const committed = yield* applySourceBlock(ledger, block).pipe(
        Effect.tapError(() => (next === undefined ? Effect.void : Fiber.interrupt(next)))
      )
      const now = Date.now()
      status.applied(committed.lastVersion, (block.transactions ?? []).length, block.timestampUsec, now)
      // A late block while following (not catching up) is worth a line: where did the time go?
      const lateMs = now - Number(block.timestampUsec / 1000n)
      if (following && !more && lateMs > slowMs && now - lastSlowLog > 1000) {
        lastSlowLog = now
        options.log?.(
          `follow: block ${block.height} applied ${lateMs} ms after its timestamp (answer received ${applyStart - answer.receivedAtMs} ms before the apply started, apply ${now - applyStart} ms)`
        )
      }
      status.setState(more ? "catching_up" : "following")
      backoffMs = 0
      options.onApplied?.(committed)
      return next
    })

  const loop = Effect.gen(function* () {
    yield* checkSameHistory(ledger, feed)
    let prefetched: Fiber.Fiber<BlockAnswer, FollowError> | undefined
    while (true) {
      const started = Date.now()
      const wasPrefetched = prefetched !== undefined
      const answer =
        prefetched === undefined ? yield* feed.blockAt(nextVersion(), longPollMs) : yield* Fiber.join(prefetched)
      prefetched = undefined
      // A prefetched block that does not start at the next version is stale: ask again. A fresh one
      // is the applier's to refuse (the source's blocks do not line up with this ledger's).
      if (wasPrefetched && answer._tag === "Block" && answer.block.firstVersion !== nextVersion()) continue
      prefetched = yield* step(answer)
      if (answer._tag === "Ahead" && Date.now() - started < Math.min(pollMs, longPollMs)) yield* Effect.sleep(pollMs)
    }
  })

  // Transient failures restart the loop (after a pause); the others end it.
  const resilient: Effect.Effect<never, SourceInvalid | SourceDiverged> = loop.pipe(
    Effect.catchTag("SourceUnavailable", (e) => Effect.andThen(unavailable(e), () => resilient))
  ) as Effect.Effect<never, SourceInvalid | SourceDiverged>
  return resilient.pipe(
    Effect.tapError((e) =>
      Effect.sync(() => {
        status.setState("stopped", e.message)
        options.log?.(`follow: stopped: ${e.message}`)
      })
    )
  ) as Effect.Effect<never, SourceInvalid | SourceDiverged>
}
