/**
 * The indexer gathers blocks under a flood (indexer/engine/gatherPolicy.ts): after a batch of a
 * full block it waits for a second block and commits both in one store transaction — boundedly,
 * never while someone waits for the index (a query's read-after-write, the chain's gate, or a
 * `hurry` from the chain's thread for a worker), and never for a chain below full blocks.
 *
 * Driven with a ledger of fixed-size blocks that grows when the test says, a pipeline that hands
 * out whole blocks and a store that records each commit's size.
 */
import * as Effect from "effect/Effect"
import * as Scope from "effect/Scope"
import { describe, expect, it } from "vitest"
import { followLedger, type LedgerFollower } from "../../src/indexer/engine/Indexer.js"
import type { Pipeline } from "../../src/indexer/engine/Pipeline.js"
import type { IndexerStoreService } from "../../src/indexer/store/IndexerStore.js"
import type { LedgerService } from "../../src/ledger/Ledger.js"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls `f` until true, failing after `ms`. */
const until = async (f: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms
  while (!f()) {
    if (Date.now() > end) throw new Error("timed out")
    await sleep(2)
  }
}

const harness = async (blockSize: number, gatherMaxWaitMs: number) => {
  let head = BigInt(blockSize - 1) // genesis: one block
  const commits: number[] = []
  const ledger = {
    ledgerInfo: Effect.sync(() => ({ ledgerVersion: head, chainId: 4 }))
  } as unknown as LedgerService
  const pipeline: Pipeline = {
    processorNames: ["p"],
    fingerprint: "gather-test",
    batch: (_ledger, next, maxTransactions) =>
      Effect.sync(() => {
        if (next > head) return undefined
        let last = next - 1n
        while (last < head && Number(last - next + 1n) < maxTransactions) last += BigInt(blockSize)
        const transactions = Number(last - next + 1n)
        return { writes: [], lastVersion: last, lastHash: "0x00", lastTimestampUsec: 0n, transactions }
      })
  }
  let position: { version: bigint } | undefined
  const store = {
    position: Effect.sync(() => position),
    reset: Effect.sync(() => {
      position = undefined
    }),
    commit: (_writes: unknown, at: { version: bigint }) =>
      Effect.sync(() => {
        commits.push(Number(at.version - (position?.version ?? -1n)))
        position = at
      }),
    settle: Effect.void
  } as unknown as IndexerStoreService
  const scope = Effect.runSync(Scope.make())
  const follower: LedgerFollower = await Effect.runPromise(
    Scope.provide(followLedger(store, ledger, { pipeline, gatherMaxWaitMs }), scope)
  )
  return {
    commits,
    follower,
    /** Commits one more block and wakes the indexer, as the chain does. */
    addBlock: () => {
      head += BigInt(blockSize)
      Effect.runSync(follower.wake)
    },
    head: () => head,
    close: () => Effect.runPromise(Scope.close(scope, Effect.void as never))
  }
}

/** Runs `f` against a fresh harness, closed afterwards whatever happens. */
const withHarness = async (
  blockSize: number,
  gatherMaxWaitMs: number,
  f: (h: Awaited<ReturnType<typeof harness>>) => Promise<void>
) => {
  const h = await harness(blockSize, gatherMaxWaitMs)
  try {
    await f(h)
  } finally {
    await h.close()
  }
}

describe("the indexer gathering blocks under a flood", () => {
  it("after a full block, waits for a second and commits both in one transaction", () =>
    withHarness(250, 5_000, async (h) => {
      await until(() => h.commits.length === 1)
      h.addBlock()
      await sleep(60)
      expect(h.commits, "one block waiting: still gathering").toEqual([250])
      h.addBlock()
      await until(() => h.commits.length === 2)
      expect(h.commits).toEqual([250, 500])
    }))

  it("waits at most its bound, then indexes the one block there is", () =>
    withHarness(250, 80, async (h) => {
      await until(() => h.commits.length === 1)
      h.addBlock()
      await until(() => h.commits.length === 2, 3_000)
      expect(h.commits).toEqual([250, 250])
    }))

  it("a query waiting for a version (read-after-write) is answered without gathering", () =>
    withHarness(250, 5_000, async (h) => {
      await until(() => h.commits.length === 1)
      h.addBlock()
      const reached = await Effect.runPromise(h.follower.waitFor(h.head(), 3_000))
      expect(reached).toBe(true)
      expect(h.commits).toEqual([250, 250])
    }))

  it("hurry (a wait on the chain's thread, for a worker) indexes at once, until that version", () =>
    withHarness(250, 5_000, async (h) => {
      await until(() => h.commits.length === 1)
      h.addBlock()
      await sleep(30)
      expect(h.commits).toEqual([250])
      Effect.runSync(h.follower.hurry(h.head()))
      await until(() => h.commits.length === 2, 3_000)
      expect(h.commits).toEqual([250, 250])
      // Reached: the next full block is gathered again.
      h.addBlock()
      await sleep(60)
      expect(h.commits).toEqual([250, 250])
      h.addBlock()
      await until(() => h.commits.length === 3)
      expect(h.commits).toEqual([250, 250, 500])
    }))

  it("below a full block per batch, block by block", () =>
    withHarness(100, 5_000, async (h) => {
      await until(() => h.commits.length === 1)
      for (let i = 2; i <= 4; i++) {
        h.addBlock()
        await until(() => h.commits.length === i, 3_000)
      }
      expect(h.commits).toEqual([100, 100, 100, 100])
    }))
})
