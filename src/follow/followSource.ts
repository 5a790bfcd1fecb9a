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
 *        │                      └ the source holds more: catch up (below), then long poll again
 *        └── SourceUnavailable: back off (100 ms doubling to 2 s), keep serving what it holds
 *
 * Catching up, the blocks are asked for by height, `aheadBlocks` requests at once (the source's
 * `X-Aptos-Block-Height` says how far to go); the ones that have arrived, in order, are checked and
 * committed together while the next are on their way.
 * The loop fails only with `SourceInvalid` or `SourceDiverged`; it runs until interrupted otherwise.
 */
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import { equalBytes, toHex0x } from "../bcs/index.js"
import type { BlockInfo } from "../ledger/Ledger.js"
import type { LedgerHandle } from "../ledger/makeLedgerService.js"
import { applySourceBlocks, blocksTogether } from "./applySourceBlock.js"
import type { ChecksResult, ChecksThread } from "./ChecksThread.js"
import type { BlockAnswer, FeedClient, SourceHead } from "./FeedClient.js"
import { type FollowError, SourceDiverged, SourceInvalid, type SourceUnavailable } from "./FollowError.js"
import type { FollowerStatus } from "./FollowerStatus.js"
import { LOCAL_CHAIN_ID, rejoinSource, sourceHoldsOurs } from "./rejoinSource.js"
import type { SourceBlock } from "./sourceBlock.js"

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
  /** Blocks asked for at once while catching up (default 8). */
  readonly aheadBlocks?: number | undefined
  /** At most this many versions checked and committed together while catching up (default 5,000). */
  readonly batchVersions?: number | undefined
  /** Catching up, the transactions' checks on this worker thread, one run ahead of the commits. */
  readonly checks?: ChecksThread | undefined
  /**
   * When the source went back under this follower (a local chain's revert, reset or load), go back
   * with it and follow on (`rejoinSource.ts`) instead of stopping with `SourceDiverged`. Default: for
   * a local-testing chain (chain id 4) only.
   */
  readonly followRewinds?: boolean | undefined
}

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
      if (!equalBytes(theirs.accumulatorRootHash, ours.accumulatorRootHash))
        return yield* new SourceDiverged({
          message: `the source ${feed.url} holds another history than this follower's data directory: at version ${head.latestVersion} its accumulator root is ${toHex0x(theirs.accumulatorRootHash)}, this follower's is ${toHex0x(ours.accumulatorRootHash)} (a source restarted with a new chain, or another chain): start the follower in a new data directory`
        })
      return
    }
    const genesis = yield* feed.transactionAt(0n)
    if (genesis !== undefined && !equalBytes(genesis.info.transactionHash, head.genesisHash))
      return yield* new SourceDiverged({
        message: `the source ${feed.url} has another genesis (${toHex0x(genesis.info.transactionHash)}) than this follower's data directory (${toHex0x(head.genesisHash)}): start the follower in a new data directory`
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
  const aheadBlocks = Math.max(1, options.aheadBlocks ?? 8)
  const batchVersions = Math.max(1, options.batchVersions ?? 5000)

  const unavailable = (e: SourceUnavailable) =>
    Effect.gen(function* () {
      backoffMs = Math.min(2000, Math.max(100, backoffMs * 2))
      status.setState("source_unavailable", e.message)
      options.log?.(`follow: ${e.message}; retrying in ${backoffMs} ms`)
      yield* Effect.sleep(backoffMs)
    })

  const sawHead = (head: SourceHead) => status.sawSource(head.ledgerVersion, head.ledgerTimestampUsec)

  /**
   * Checks and commits `blocks` (consecutive), in runs `blocksTogether` allows; reports each.
   * `leaves`: their transactions' info hashes when the checks' worker already checked them.
   */
  const apply = (
    blocks: ReadonlyArray<SourceBlock>,
    receivedAtMs: number,
    catchingUp: boolean,
    leaves?: ReadonlyArray<Uint8Array>
  ) =>
    Effect.gen(function* () {
      let offset = 0
      for (let i = 0; i < blocks.length; ) {
        const run = blocks.slice(i, i + blocksTogether(blocks.slice(i)))
        i += run.length
        const count = run.reduce((n, b) => n + (b.transactions?.length ?? 0), 0)
        const runLeaves = leaves?.slice(offset, offset + count)
        offset += count
        const applyStart = Date.now()
        const committed = yield* applySourceBlocks(ledger, run, runLeaves)
        const now = Date.now()
        for (const block of run)
          status.applied(block.lastVersion, (block.transactions ?? []).length, block.timestampUsec, now)
        const last = run.at(-1)!
        // A late block while following (not catching up) is worth a line: where did the time go?
        const lateMs = now - Number(last.timestampUsec / 1000n)
        if (following && !catchingUp && lateMs > slowMs && now - lastSlowLog > 1000) {
          lastSlowLog = now
          options.log?.(
            `follow: block ${last.height} applied ${lateMs} ms after its timestamp (answer received ${applyStart - receivedAtMs} ms before the apply started, apply ${now - applyStart} ms)`
          )
        }
        backoffMs = 0
        for (const info of committed) options.onApplied?.(info)
      }
    })

  /**
   * Catching up: blocks by height from the next one, `aheadBlocks` requests in flight, up to the
   * source's height as its headers report it (or until it answers "not yet"). Whatever has arrived
   * in order is applied together (up to `batchVersions`) while the rest is fetched.
   */
  const catchUp = (sourceHeight: bigint | undefined) =>
    Effect.gen(function* () {
      let known = sourceHeight
      const inflight: Array<Fiber.Fiber<BlockAnswer, FollowError>> = []
      let nextFetch = (ledger.head()?.latestHeight ?? -1n) + 1n
      let ended = false
      // With a checks' worker: the run it is checking, committed here once the next run is sent to
      // it (the worker checks one run while this thread commits the one before).
      let pending: { blocks: SourceBlock[]; receivedAtMs: number; checked: Promise<ChecksResult> } | undefined
      let sent = false
      const settle = Effect.gen(function* () {
        if (pending === undefined) return
        const { blocks, receivedAtMs, checked } = pending
        pending = undefined
        const leaves = yield* Effect.promise(() => checked)
        if (leaves instanceof SourceInvalid || leaves instanceof SourceDiverged) return yield* Effect.fail(leaves)
        // undefined: the worker is gone; checked here.
        yield* apply(blocks, receivedAtMs, true, leaves)
      })
      yield* Effect.gen(function* () {
        while (true) {
          while (!ended && inflight.length < aheadBlocks && (known === undefined || nextFetch <= known))
            inflight.push(yield* Effect.forkChild(feed.blockAtHeight(nextFetch++)))
          if (inflight.length === 0) return yield* settle
          const ready: SourceBlock[] = []
          let versions = 0
          let receivedAtMs = 0
          // The first in line (waiting for it), then whichever after it have already arrived.
          while (inflight.length > 0 && versions < batchVersions) {
            const first = inflight[0]!
            if (ready.length > 0) {
              const done = first.pollUnsafe()
              if (done === undefined || !Exit.isSuccess(done)) break
            }
            inflight.shift()
            const answer = yield* Fiber.join(first)
            sawHead(answer.head)
            if (answer.head.blockHeight !== undefined && (known === undefined || answer.head.blockHeight > known))
              known = answer.head.blockHeight
            if (answer._tag === "Ahead") {
              // The source has no such block yet: apply what came, then follow (long poll) again.
              ended = true
              break
            }
            ready.push(answer.block)
            versions += answer.block.transactions?.length ?? 0
            receivedAtMs = answer.receivedAtMs
          }
          if (ended) yield* Effect.forEach(inflight.splice(0), Fiber.interrupt, { discard: true })
          if (ready.length === 0) continue
          status.setState("catching_up")
          if (options.checks === undefined) {
            yield* apply(ready, receivedAtMs, true)
            continue
          }
          // The first run from the ledger's head (nothing is pending then), the next ones from where
          // the one before ended.
          const head = ledger.head()
          const start =
            sent || head === undefined ? undefined : { version: head.latestVersion + 1n, accumulator: head.accumulator }
          sent = true
          const checked = options.checks.check(
            ready.flatMap((b) => b.transactions ?? []),
            start
          )
          yield* settle
          pending = { blocks: ready, receivedAtMs, checked }
        }
      }).pipe(Effect.ensuring(Effect.forEach(inflight, Fiber.interrupt, { discard: true })))
    })

  const loop = Effect.gen(function* () {
    yield* checkSameHistory(ledger, feed)
    while (true) {
      const started = Date.now()
      const answer = yield* feed.blockAt(nextVersion(), longPollMs)
      sawHead(answer.head)
      if (answer._tag === "Ahead") {
        // A local chain's source below this follower's head went back (a revert, a reset): rejoin.
        // (Elsewhere a source behind is one lagging — another node behind a balancer: wait for it.)
        // A head read from a stale snapshot (a front process's, say) is not a rewind: the source
        // must also have lost this follower's latest version, or hold another one there.
        const ours = ledger.head()?.latestVersion
        const theirs = answer.head.ledgerVersion
        if (
          followsRewinds() &&
          ours !== undefined &&
          theirs !== undefined &&
          theirs < ours &&
          !(yield* sourceHoldsOurs(ledger, feed, ours))
        )
          return yield* new SourceDiverged({
            message: `the source's ledger is at version ${theirs}, below this follower's ${ours}: it went back`
          })
        following = true
        status.caughtUp(Date.now())
        status.setState("following")
        if (Date.now() - started < Math.min(pollMs, longPollMs)) yield* Effect.sleep(pollMs)
        continue
      }
      const block = answer.block
      const more = answer.head.ledgerVersion !== undefined && answer.head.ledgerVersion > block.lastVersion
      yield* apply([block], answer.receivedAtMs, more)
      if (more) yield* catchUp(answer.head.blockHeight)
      status.setState("following")
    }
  })

  const followsRewinds = () => options.followRewinds ?? ledger.head()?.chainId === LOCAL_CHAIN_ID
  /** The source went back under this ledger: back with it (when allowed), then follow on. */
  const rejoin = (e: SourceDiverged) =>
    Effect.gen(function* () {
      if (!followsRewinds()) return yield* Effect.fail(e)
      const back = yield* rejoinSource(ledger, feed, e)
      following = false
      status.wentBack(back.version)
      options.log?.(
        `follow: the source went back (a revert, reset or load of a local chain): this follower went back to version ${back.version} (block ${back.height}) and follows on`
      )
    })

  // Transient failures restart the loop (after a pause), as does a source gone back under this
  // follower when it follows rewinds; the others end it.
  // (A rejoin's own requests may find the source unavailable: waited for like the loop's.)
  const resilient: Effect.Effect<never, SourceInvalid | SourceDiverged> = Effect.suspend(() =>
    loop.pipe(
      Effect.catchTag("SourceDiverged", rejoin),
      Effect.catchTag("SourceUnavailable", unavailable),
      Effect.andThen(() => resilient)
    )
  )
  return resilient.pipe(
    Effect.tapError((e) =>
      Effect.sync(() => {
        status.setState("stopped", e.message)
        options.log?.(`follow: stopped: ${e.message}`)
      })
    )
  ) as Effect.Effect<never, SourceInvalid | SourceDiverged>
}
