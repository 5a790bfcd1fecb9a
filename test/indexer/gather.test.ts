/**
 * The indexer gathers blocks (indexer/engine/gatherPolicy.ts): after a batch of a full block it
 * waits for a second block and commits both in one store transaction; after a smaller batch it
 * takes whatever arrives within a shorter bound together — boundedly, and never while someone waits
 * for the index (a query's read-after-write, the chain's gate, or a `hurry` from the chain's thread
 * for a worker).
 *
 * Driven with a ledger of fixed-size blocks that grows when the test says, a pipeline that hands
 * out whole blocks and a store that records each commit's size.
 */
import * as Effect from "effect/Effect"
import * as Scope from "effect/Scope"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  GATHER_FROM_BATCH,
  GATHER_MAX_WAIT_MS,
  gatherPlan,
  TRICKLE_GATHER_MS
} from "../../src/indexer/engine/gatherPolicy.js"
import { followLedger, type LedgerFollower } from "../../src/indexer/engine/Indexer.js"
import type { Pipeline } from "../../src/indexer/engine/Pipeline.js"
import type { LedgerService } from "../../src/ledger/Ledger.js"
import { fakeIndexStore } from "./fakeIndexStore.js"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls `f` until true, failing after `ms`. */
const until = async (f: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms
  while (!f()) {
    if (Date.now() > end) throw new Error("timed out")
    await sleep(2)
  }
}

const harness = async (blockSize: number, gatherMaxWaitMs: number, trickleGatherMs: number) => {
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
  const { store } = fakeIndexStore((_writes, version, before) => commits.push(Number(version - (before ?? -1n))))
  const scope = Effect.runSync(Scope.make())
  const follower: LedgerFollower = await Effect.runPromise(
    Scope.provide(followLedger(store, ledger, { pipeline, gatherMaxWaitMs, trickleGatherMs }), scope)
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
  f: (h: Awaited<ReturnType<typeof harness>>) => Promise<void>,
  trickleGatherMs = 5_000
) => {
  const h = await harness(blockSize, gatherMaxWaitMs, trickleGatherMs)
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

  // Full blocks (250) and blocks below a full one (100): each regime's wait ends for a waiter.
  it.each([250, 100])(
    "a query waiting for a version (read-after-write) is answered without gathering (blocks of %i)",
    (size) =>
      withHarness(size, 5_000, async (h) => {
        await until(() => h.commits.length === 1)
        h.addBlock()
        const reached = await Effect.runPromise(h.follower.waitFor(h.head(), 3_000))
        expect(reached).toBe(true)
        expect(h.commits).toEqual([size, size])
      })
  )

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

  it("below a full block, what arrives within the bound is taken together, up to a whole batch", () =>
    withHarness(100, 5_000, async (h) => {
      await until(() => h.commits.length === 1)
      for (let i = 0; i < 4; i++) h.addBlock()
      await sleep(60)
      expect(h.commits, "400 versions waiting: still gathering").toEqual([100])
      h.addBlock()
      await until(() => h.commits.length === 2)
      expect(h.commits, "a whole batch (500) waiting: taken at once").toEqual([100, 500])
    }))

  it("below a full block, waits at most its own bound", () =>
    withHarness(
      100,
      5_000,
      async (h) => {
        await until(() => h.commits.length === 1)
        h.addBlock()
        await until(() => h.commits.length === 2, 3_000)
        h.addBlock()
        h.addBlock()
        await until(() => h.commits.length === 3, 3_000)
        expect(h.commits).toEqual([100, 100, 200])
      },
      80
    ))
})

describe("gatherPlan", () => {
  it("waits after every batch: for 1.5 batches under a flood, for a whole batch below it, each within its bound", () =>
    fc.assert(
      fc.property(fc.integer({ min: -10, max: 1_000_000 }), fc.integer({ min: 1, max: 100_000 }), (last, max) => {
        const plan = gatherPlan(last, max)
        if (last <= 0) expect(plan).toBeUndefined()
        else if (last >= GATHER_FROM_BATCH)
          expect(plan).toEqual({
            versions: BigInt(Math.min(max, Math.ceil(last * 1.5))),
            maxWaitMs: GATHER_MAX_WAIT_MS
          })
        else expect(plan).toEqual({ versions: BigInt(max), maxWaitMs: TRICKLE_GATHER_MS })
      })
    ))

  it("a bound of 0 (or not a number) means no wait", () => {
    expect(gatherPlan(300, 500, 0)).toBeUndefined()
    expect(gatherPlan(10, 500, 150, 0)).toBeUndefined()
    expect(gatherPlan(10, 500, 150, Number.NaN)).toBeUndefined()
    expect(gatherPlan(300, 500, 150, 0)).toEqual({ versions: 450n, maxWaitMs: 150 })
  })
})
