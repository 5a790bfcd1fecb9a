/**
 * A reader's LMDB snapshot is renewed once it is old (`snapshotBound.ts`), so a reader in a long
 * stretch of reads does not keep the writer from reusing the pages its commits free.
 *
 * The unit: `beforeRead` renews exactly when the clock, looked at every eighth read, shows the
 * bound reached since the last renewal. The store: a reader handle reading between the writer's
 * commits, all in one synchronous stretch (no timer tick, so lmdb-js never renews on its own), as
 * the indexer's worker learning the framework's tables at start does; the file grows as without a
 * reader when the snapshot is bounded, and by pages for every commit when it is not.
 */
import { statSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { openLmdbBackend } from "../../src/ledger/LmdbBackend.js"
import { makeLedgerService } from "../../src/ledger/makeLedgerService.js"
import { snapshotBound } from "../../src/ledger/snapshotBound.js"
import { checkpointTxn, keyOf, tempDir, toCommit } from "./fixtures.js"

describe("snapshotBound", () => {
  it("renews at a look once the bound is reached since the last renewal, and only then", () => {
    // Steps: advance the clock by ms, a read, or a renewal by other means.
    const step = fc.oneof(
      fc.record({ advance: fc.integer({ min: 0, max: 30 }) }),
      fc.constant({ read: true as const }),
      fc.constant({ renewed: true as const })
    )
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), fc.array(step, { maxLength: 300 }), (maxAge, steps) => {
        let clock = 0
        let renewals = 0
        const bound = snapshotBound(
          () => renewals++,
          maxAge,
          () => clock
        )
        // The model: the time of the last renewal, and reads counted from the start.
        let since = 0
        let reads = 0
        let expected = 0
        for (const s of steps) {
          if ("advance" in s) clock += s.advance
          else if ("renewed" in s) {
            bound.renewed()
            since = clock
          } else {
            bound.beforeRead()
            reads++
            if (reads % 8 === 0 && clock - since >= maxAge) {
              expected++
              since = clock
            }
          }
          expect(renewals).toBe(expected)
        }
      })
    )
  })
})

describe("a reader's snapshot in a long stretch of reads", () => {
  const BLOCKS = 200
  const KEYS = 40

  /**
   * The growth of data.mdb over BLOCKS commits, with a reader of the given bound reading between
   * them and then doing `afterReads` (nothing by default) before the commit.
   */
  const growth = (
    reader: { readonly maxSnapshotAgeMs: number } | undefined,
    afterReads: (backend: ReturnType<typeof openLmdbBackend>) => void = () => {}
  ) =>
    Effect.scoped(
      Effect.gen(function* () {
        const dir = yield* tempDir()
        const writer = openLmdbBackend({ path: dir, sync: false })
        const ledger = makeLedgerService(writer, {})
        const file = () => statSync(join(dir, "data.mdb")).size
        const commit = (n: number) =>
          ledger.service.commitBlock({
            epoch: 1n,
            timestampUsec: BigInt(n + 1),
            // Every block writes every key: each commit copies the tree's pages it touches and frees the old ones.
            transactions: [
              toCommit(
                checkpointTxn(n),
                Array.from({ length: KEYS }, (_, k) => [k, n % 256] as const)
              )
            ]
          })
        // Warm: the tables exist and have their shape before the measured commits.
        for (let n = 0; n < 20; n++) yield* commit(n)
        const opened = reader === undefined ? undefined : openLmdbBackend({ path: dir, lock: false, ...reader })
        const before = file()
        for (let n = 20; n < 20 + BLOCKS; n++) {
          if (opened !== undefined)
            for (let k = 0; k < 8; k++) expect(opened.stateGet(keyOf(k % KEYS), 10n)?.version).toBe(10n)
          if (opened !== undefined) afterReads(opened)
          yield* commit(n)
        }
        const grown = file() - before
        void opened?.close()
        ledger.close()
        return grown
      })
    )

  it("grows the file as without a reader when bounded, by pages per commit when not", () => {
    // All synchronous (a store without fsync commits in the calling thread): no timer tick between reads.
    const alone = Effect.runSync(growth(undefined))
    const bounded = Effect.runSync(growth({ maxSnapshotAgeMs: 0 }))
    const pinned = Effect.runSync(growth({ maxSnapshotAgeMs: Number.POSITIVE_INFINITY }))
    // Pinned, no page freed after the reader's first read is reused: every commit takes new pages.
    expect(pinned).toBeGreaterThan(BLOCKS * 4096)
    // Bounded, the reader holds back at most the commit since its last look.
    expect(bounded).toBeLessThanOrEqual(alone + 16 * 4096)
  })

  it("lets the snapshot go with releaseReads before the writer commits; refreshReads takes a new one at once", () => {
    // The indexer's worker after reading a batch, storing its rows while the chain commits: a
    // snapshot released there holds nothing back; one refreshed (which reads the store's count of
    // truncations, renewing the snapshot) pins every page the commits free until the next timer tick.
    const unbounded = { maxSnapshotAgeMs: Number.POSITIVE_INFINITY }
    const alone = Effect.runSync(growth(undefined))
    const released = Effect.runSync(growth(unbounded, (b) => b.releaseReads?.()))
    const refreshed = Effect.runSync(growth(unbounded, (b) => b.refreshReads?.()))
    expect(refreshed).toBeGreaterThan(BLOCKS * 4096)
    expect(released).toBeLessThanOrEqual(alone + 16 * 4096)
  })
})
