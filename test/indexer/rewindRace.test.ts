/**
 * A batch whose ledger reads fail because the chain went back under it (a revert, a reset or a load
 * racing the indexer's reads: "transaction N is missing", `BlockNotFound`, `VersionNotFound`) is
 * retried at once and quietly (`FollowOptions.rewinds`: the store's truncation count moved); any
 * other failure is reported (`failing`, a warning) and retried after a pause, as before. Test
 * suites revert between tests with the indexer on: each race used to print a warning and hold the
 * index (and every GraphQL query waiting on it) for the pause. And a reset indexes genesis again
 * from the batch made the first time, not by decoding the framework's write set anew. A reset or
 * rewind that fails in the store itself is a failure like any other (it used to be retried at once,
 * as a race: 2,383 tries in 300 ms against a broken store).
 */
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import * as Scope from "effect/Scope"
import { describe, expect, it } from "vitest"
import { followLedger } from "../../src/indexer/engine/Indexer.js"
import type { Pipeline } from "../../src/indexer/engine/Pipeline.js"
import type { LedgerService } from "../../src/ledger/Ledger.js"
import { StorageError } from "../../src/ledger/LedgerError.js"
import { fakeIndexStore } from "./fakeIndexStore.js"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * An indexer over a ledger of 10 versions whose first batch fails; `rewindDuringFailure`: the
 * store's truncation count moves while it fails. Resolves with what was logged at warning level,
 * the states reported, and the version indexed once the commit came.
 */
const run = async (rewindDuringFailure: boolean) => {
  let truncations = 0
  let failed = false
  const warnings: string[] = []
  const states: string[] = []
  const ledger = { ledgerInfo: Effect.succeed({ ledgerVersion: 9n, chainId: 4 }) } as unknown as LedgerService
  const pipeline: Pipeline = {
    processorNames: ["p"],
    fingerprint: "rewind-race-test",
    batch: () =>
      Effect.suspend(() => {
        if (!failed) {
          failed = true
          if (rewindDuringFailure) truncations++
          return Effect.fail(new StorageError({ message: "transaction 5 is missing" }))
        }
        return Effect.succeed({
          writes: [],
          lastVersion: 9n,
          lastHash: "0x00",
          lastTimestampUsec: 0n,
          transactions: 10
        })
      })
  }
  const { store, indexed } = fakeIndexStore()
  const scope = Effect.runSync(Scope.make())
  const capture = Logger.layer([
    Logger.make(({ logLevel, message }) => {
      if (logLevel === "Warn" || logLevel === "Error") warnings.push(String(message))
    })
  ])
  await Effect.runPromise(
    Scope.provide(
      followLedger(store, ledger, {
        pipeline,
        rewinds: () => truncations,
        onProgress: (health) => states.push(health.state)
      }),
      scope
    ).pipe(Effect.provide(capture))
  )
  try {
    for (let i = 0; i < 1_000 && indexed() === undefined; i++) await sleep(5)
    return { warnings, states, indexed: indexed() }
  } finally {
    await Effect.runPromise(Scope.close(scope, Effect.void as never))
  }
}

describe("a batch racing a rewind of the ledger", () => {
  it("is retried at once, with no warning and no failing state", async () => {
    const r = await run(true)
    expect(r.indexed).toBe(9n)
    expect(r.warnings).toEqual([])
    expect(r.states).not.toContain("failing")
  })

  it("while any other failure is reported and retried after the pause", async () => {
    const r = await run(false)
    expect(r.indexed).toBe(9n)
    expect(r.warnings).toHaveLength(1)
    expect(r.warnings[0]).toMatch(/a batch failed and will be retried: .*transaction 5 is missing/)
    expect(r.states).toContain("failing")
  })
})

describe("a reset", () => {
  it("commits genesis's batch as first made, asking the pipeline for version 0 once", async () => {
    const fromZero: number[] = []
    const commits: bigint[] = []
    const ledger = { ledgerInfo: Effect.succeed({ ledgerVersion: 9n, chainId: 4 }) } as unknown as LedgerService
    const genesisWrites = [{ _tag: "Insert" as const, table: "events", rows: [] }]
    const pipeline: Pipeline = {
      processorNames: ["p"],
      fingerprint: "reset-genesis-test",
      batch: (_ledger, next, max) =>
        Effect.sync(() => {
          if (next === 0n) fromZero.push(max)
          const last = next === 0n ? 0n : 9n
          return {
            writes: next === 0n ? genesisWrites : [],
            lastVersion: last,
            lastHash: "0x00",
            lastTimestampUsec: 0n,
            transactions: Number(last - next + 1n)
          }
        })
    }
    const committed: unknown[] = []
    const { store, indexed } = fakeIndexStore((writes, version) => {
      if (version === 0n) committed.push(writes)
      commits.push(version)
    })
    const scope = Effect.runSync(Scope.make())
    const follower = await Effect.runPromise(Scope.provide(followLedger(store, ledger, { pipeline }), scope))
    try {
      for (let i = 0; i < 1_000 && indexed() !== 9n; i++) await sleep(5)
      Effect.runSync(follower.requestReset)
      for (let i = 0; i < 1_000 && follower.resetsDone() === 0; i++) await sleep(5)
      for (let i = 0; i < 1_000 && indexed() !== 9n; i++) await sleep(5)
    } finally {
      await Effect.runPromise(Scope.close(scope, Effect.void as never))
    }
    expect(commits).toEqual([0n, 9n, 0n, 9n])
    expect(fromZero).toEqual([1])
    expect(committed).toEqual([genesisWrites, genesisWrites])
  })
})

describe("a reset or rewind that itself fails (the store's fault, not a race)", () => {
  it("is reported and retried after the pause, not spun, and done once the store works", async () => {
    const ledger = { ledgerInfo: Effect.succeed({ ledgerVersion: 9n, chainId: 4 }) } as unknown as LedgerService
    const pipeline: Pipeline = {
      processorNames: ["p"],
      fingerprint: "failing-reset-test",
      batch: (_ledger, next) =>
        Effect.succeed({
          writes: [],
          lastVersion: 9n,
          lastHash: "0x00",
          lastTimestampUsec: 0n,
          transactions: Number(10n - next)
        })
    }
    const { store: working, indexed } = fakeIndexStore()
    let resets = 0
    let broken = true
    const store = {
      ...working,
      reset: Effect.suspend(() => {
        resets++
        // (A StorageError stands for the store's SqlError: the follower treats any failure alike.)
        return broken ? (Effect.fail(new StorageError({ message: "the database is gone" })) as never) : working.reset
      })
    } as typeof working
    const warnings: string[] = []
    const capture = Logger.layer([
      Logger.make(({ logLevel, message }) => {
        if (logLevel === "Warn") warnings.push(String(message))
      })
    ])
    const scope = Effect.runSync(Scope.make())
    const follower = await Effect.runPromise(
      Scope.provide(followLedger(store, ledger, { pipeline }), scope).pipe(Effect.provide(capture))
    )
    try {
      for (let i = 0; i < 1_000 && indexed() !== 9n; i++) await sleep(5)
      Effect.runSync(follower.requestReset)
      await sleep(300)
      // One try, then the pause (a spin would have tried thousands of times by now).
      expect(resets).toBe(1)
      expect((await Effect.runPromise(follower.health)).state).toBe("failing")
      expect((await Effect.runPromise(follower.health)).indexedVersion).toBe(-1n)
      broken = false
      for (let i = 0; i < 1_000 && follower.resetsDone() === 0; i++) await sleep(5)
      expect(follower.resetsDone()).toBe(1)
      expect(warnings.some((w) => /the database is gone/.test(w))).toBe(true)
    } finally {
      await Effect.runPromise(Scope.close(scope, Effect.void as never))
    }
  })
})
