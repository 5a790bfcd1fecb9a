/**
 * A follower of a source that went back — a local chain's revert, reset or load (its test
 * controls), the versions above some point replaced by new ones — goes back with it instead of
 * stopping: it finds the highest version at which the source and its own ledger hold the same
 * history, goes back to the last block ending there, and follows on.
 *
 * "The same history" is the transaction accumulator root: it commits to every transaction up to
 * its version, so the two agree at a version exactly when they agree on everything before it, and
 * the versions at which they agree are a prefix — found by bisection, a logarithmic number of the
 * source's transactions asked for. Genesis must agree (else the source is another chain: the
 * divergence stands); a source holding this ledger's whole history did not go back under it, so
 * the divergence stands then too (it is something else: a block that does not continue it).
 *
 * Only where rewinds are part of the source's life: by default a local-testing chain (chain id 4,
 * as movenode's local chain); a real network's history is never taken back, and a follower of one
 * stops on a divergence as before (`FollowOptions.followRewinds`).
 */
import * as Effect from "effect/Effect"
import { equalBytes } from "../bcs/index.js"
import type { LedgerHandle } from "../ledger/makeLedgerService.js"
import type { FeedClient } from "./FeedClient.js"
import { type FollowError, type SourceDiverged, SourceInvalid } from "./FollowError.js"

/** The chain id of local testing chains (the SDK's `Network.LOCAL`): their sources revert. */
export const LOCAL_CHAIN_ID = 4

/**
 * Whether the source holds `version` as this ledger does (the same accumulator root there, so the
 * same history up to it); false when the source has no such version (yet, or any more).
 */
export const sourceHoldsOurs = (
  ledger: LedgerHandle,
  feed: FeedClient,
  version: bigint
): Effect.Effect<boolean, FollowError> =>
  Effect.gen(function* () {
    const theirs = yield* feed.transactionAt(version)
    if (theirs === undefined) return false
    const ours = yield* Effect.mapError(
      ledger.service.transactionByVersion(version),
      (e) => new SourceInvalid({ message: `this follower's version ${version}: ${e.message}` })
    )
    return equalBytes(theirs.accumulatorRootHash, ours.accumulatorRootHash)
  })

/** Where the follower went back to: the last version and height it now holds. */
export interface Rejoined {
  readonly version: bigint
  readonly height: bigint
}

/**
 * Takes `ledger` back to the last block at or below the highest version its history shares with
 * `feed`'s source; fails with `diverged` when there is nothing to go back to (see above).
 */
export const rejoinSource = (
  ledger: LedgerHandle,
  feed: FeedClient,
  diverged: SourceDiverged
): Effect.Effect<Rejoined, FollowError> =>
  Effect.gen(function* () {
    const rewind = ledger.service.rewind
    const head = ledger.head()
    if (rewind === undefined || head === undefined) return yield* Effect.fail(diverged)
    const agrees = (version: bigint) => sourceHoldsOurs(ledger, feed, version)
    if (!(yield* agrees(head.oldestVersion))) return yield* Effect.fail(diverged)
    if (yield* agrees(head.latestVersion)) return yield* Effect.fail(diverged)
    // Invariant: they agree at `low`, not at `high`.
    let low = head.oldestVersion
    let high = head.latestVersion
    while (high - low > 1n) {
      const middle = low + (high - low) / 2n
      if (yield* agrees(middle)) low = middle
      else high = middle
    }
    const block = yield* Effect.mapError(
      ledger.service.blockByVersion(low),
      (e) => new SourceInvalid({ message: `this follower's block at version ${low}: ${e.message}` })
    )
    // The block holding `low` ends at it, or the one before it is the last wholly shared.
    const height = block.lastVersion === low ? block.height : block.height - 1n
    const back = yield* Effect.mapError(
      Effect.flatMap(rewind.markAtHeight(height), (mark) => Effect.as(rewind.rewindTo(mark), mark)),
      (e) => new SourceInvalid({ message: `going back to block ${height}: ${e.message}` })
    )
    return { version: back.version, height: back.height }
  })
