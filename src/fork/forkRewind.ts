/**
 * Going back on a fork (the test controls' reset, and a revert to a snapshot taken before the
 * fork's first block): the furthest a fork can go back is its fork point, the source's state at V
 * with nothing of its own above it. The ledger service's own rewind cannot reach it (it checks a
 * mark against the transaction recorded at the mark's version, and a fork records nothing at V;
 * it rebuilds the accumulator from version 0, which a fork never held), so this wrapper answers
 * the fork point itself:
 *
 * - `markAtHeight(h)` for any height at or below the fork's block H is the fork point (the
 *   controls' `reset` asks for height 0, "genesis": on a fork, the base it started from);
 * - `rewindTo` / `replaceAfter` (with no blocks) a mark at V empties the fork's own store down to
 *   the base head: state reads fall through to the remote cache again (it holds the source's values
 *   at V only, never local writes, so nothing has to be forgotten there);
 * - `replaceAfter` a mark at V with blocks (a load of a fork's dump) does that and commits the
 *   blocks on the base head in the same atomic step: recorded blocks chain from the base's
 *   accumulator, which is derived from the fork's identity (`baseAccumulator`), so a dump of a fork
 *   loads only into a fork of the same point.
 *
 * Marks above V go to the ledger service's rewind unchanged.
 */
import * as Effect from "effect/Effect"
import type { BlockToCommit, LedgerMark, LedgerRewind } from "../ledger/Ledger.js"
import type { LedgerBackend, LedgerHead } from "../ledger/LedgerBackend.js"
import { StorageError } from "../ledger/LedgerError.js"
import { type CommittedBlockInput, prepareBlocksAfter } from "../ledger/prepareBlock.js"

export const forkRewind = (inner: LedgerRewind, base: LedgerHead, backend: LedgerBackend): LedgerRewind => {
  const V = base.latestVersion
  const forkPoint: LedgerMark = {
    version: V,
    height: base.latestHeight,
    timestampUsec: base.timestampUsec,
    epoch: base.epoch,
    head: base
  }
  /** The store's truncation counts after each return to the fork point (bounded). */
  const resets: number[] = []
  const toForkPoint = (blocks: ReadonlyArray<BlockToCommit | CommittedBlockInput>) =>
    Effect.try({
      try: () => {
        const prepared = prepareBlocksAfter(base, blocks, {
          chainId: base.chainId,
          window: undefined,
          storedBlockOfVersion: backend.blockOfVersion
        })
        backend.truncateAfter!(base, prepared)
        resets.push(backend.truncations?.() ?? resets.length + 1)
        if (resets.length > 4096) resets.splice(0, resets.length - 4096)
      },
      catch: (e) =>
        new StorageError({
          message: `fork: cannot ${blocks.length === 0 ? "return to" : "commit the blocks on"} the fork point: ${e instanceof Error ? e.message : String(e)}`
        })
    })
  return {
    ...inner,
    markAtHeight: (height) => (height <= base.latestHeight ? Effect.succeed(forkPoint) : inner.markAtHeight(height)),
    rewindTo: (mark) => (mark.version === V ? toForkPoint([]) : inner.rewindTo(mark)),
    replaceAfter: (mark, blocks) => (mark.version === V ? toForkPoint(blocks) : inner.replaceAfter(mark, blocks)),
    // A return to the fork point is the lowest any rewind of a fork goes: everything above V.
    rewoundTo: (since) => (resets.some((count) => count > since) ? V : inner.rewoundTo(since))
  }
}
