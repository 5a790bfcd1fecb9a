/**
 * The indexer's worker dies and the chain's thread starts another (`IndexerThread`): the new one
 * does the reset asked and not yet done — a full one (`reindex`) even when a rewind was asked after
 * it, a rewind by the undo log the chain's snapshot started — and does not do again one the dead
 * worker finished (a rebuild from genesis for nothing).
 * The worker is `dyingIndexerWorker.mjs` (the build's worker, `npm run build` first, ending once on
 * a message of a chosen kind).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Account } from "@aptos-labs/ts-sdk"
import * as Effect from "effect/Effect"
import { afterEach, describe, expect, it } from "vitest"
import type { IndexerService } from "../../src/indexer/index.js"
import type { LocalChain } from "../../src/LocalChain.js"
import { indexedLocalChain } from "../support/indexedLocalChain.js"

const dyingWorkerUrl = new URL("./dyingIndexerWorker.mjs", import.meta.url)

const dirs: string[] = []
afterEach(() => {
  delete process.env.MOVENODE_TEST_DIE_ON
  delete process.env.MOVENODE_TEST_DIE_ARMED
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

/** A local chain whose indexer runs in `dyingIndexerWorker.mjs`, ending at the first `dieOn` message once armed. */
const withChain = (
  dieOn: string,
  body: (t: {
    readonly chain: LocalChain["Service"]
    readonly indexer: IndexerService
    readonly transfer: Effect.Effect<void>
    readonly caughtUp: Effect.Effect<void, unknown>
    /** The next `dieOn` message ends the worker; resolves once it has. */
    readonly arm: Effect.Effect<Effect.Effect<void>>
    /** A transfer, a snapshot (the index keeps its undo from there), a transfer, all indexed: the snapshot. */
    readonly snapshotBetweenTransfers: Effect.Effect<bigint, unknown>
  }) => Effect.Effect<void, unknown>
) => {
  const dataDir = mkdtempSync(join(tmpdir(), "movenode-restart-"))
  dirs.push(dataDir)
  const armed = join(dataDir, "armed")
  process.env.MOVENODE_TEST_DIE_ON = dieOn
  process.env.MOVENODE_TEST_DIE_ARMED = armed
  return Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const indexed = yield* indexedLocalChain({ accounts: 1, dataDir, indexerWorker: dyingWorkerUrl })
        const { chain, indexer, caughtUp } = indexed
        /** 100 octas to a new account. */
        const transfer = Effect.suspend(() => indexed.transfer(Account.generate().accountAddress.toString(), 100))
        const arm = Effect.sync(() => {
          writeFileSync(armed, "")
          return Effect.promise(async () => {
            for (let i = 0; i < 500 && existsSync(armed); i++) await new Promise((r) => setTimeout(r, 10))
            expect(existsSync(armed)).toBe(false)
          })
        })
        const snapshotBetweenTransfers = Effect.gen(function* () {
          yield* transfer
          yield* caughtUp
          const snapshot = yield* chain.controls.snapshot
          yield* transfer
          yield* caughtUp
          return snapshot
        })
        yield* body({ chain, indexer, transfer, caughtUp, arm, snapshotBetweenTransfers })
      })
    )
  )
}

describe("the indexer's worker restarted", () => {
  it("does a full reset asked before a rewind, both asked while the worker died", async () => {
    await withChain("Reset", ({ chain, indexer, transfer, caughtUp, arm, snapshotBetweenTransfers }) =>
      Effect.gen(function* () {
        // The index keeps its undo from the snapshot: a rewind alone would be undone, not rebuilt.
        const snapshot = yield* snapshotBetweenTransfers
        const died = yield* arm
        // The reindex's reset ends the worker before it acts; the revert's rewind reaches no worker.
        yield* indexer.reindex
        yield* chain.controls.revert(snapshot)
        yield* died
        yield* transfer
        yield* caughtUp
        const health = yield* indexer.health
        expect(health.rebuilds).toBe(1)
        expect(health.rewindsUndone).toBe(0)
      })
    )
  }, 60_000)

  it("takes the index back by its undo log after a revert asked while the worker died", async () => {
    await withChain("Reset", ({ chain, indexer, transfer, caughtUp, arm, snapshotBetweenTransfers }) =>
      Effect.gen(function* () {
        const snapshot = yield* snapshotBetweenTransfers
        const died = yield* arm
        yield* chain.controls.revert(snapshot)
        yield* died
        yield* transfer
        yield* caughtUp
        const health = yield* indexer.health
        expect(health.rewindsUndone).toBe(1)
        expect(health.rebuilds).toBe(0)
      })
    )
  }, 60_000)

  it("does not redo a reset the worker before it had done", async () => {
    await withChain("Wake", ({ chain, indexer, transfer, caughtUp, arm }) =>
      Effect.gen(function* () {
        yield* transfer
        // A reset to genesis: no undo to take back, the index is rebuilt (by this worker).
        yield* chain.controls.reset
        yield* transfer
        yield* caughtUp
        expect((yield* indexer.health).rebuilds).toBe(1)
        const died = yield* arm
        yield* transfer
        yield* died
        yield* transfer
        yield* caughtUp
        // The new worker's counts: it indexed on from the stored position.
        expect((yield* indexer.health).rebuilds).toBe(0)
      })
    )
  }, 60_000)
})
