/**
 * The indexer's worker acknowledges a reset only once a go-back that started after it was asked is
 * done (`src/indexer/worker/resetAcknowledgement.ts`): a `reindex` asked while a rewind is under
 * way is not acknowledged when that rewind finishes (the chain's thread would count the index
 * current, and a restarted worker would not do the reindex), but when the reset after it is done.
 * Over the real follower (`followLedger`) and a store whose first reset waits to be let go.
 */
import * as Effect from "effect/Effect"
import * as Scope from "effect/Scope"
import { describe, expect, it } from "vitest"
import { followLedger } from "../../src/indexer/engine/Indexer.js"
import type { Pipeline } from "../../src/indexer/engine/Pipeline.js"
import type { IndexerStoreService } from "../../src/indexer/store/IndexerStore.js"
import { makeResetAcknowledgement } from "../../src/indexer/worker/resetAcknowledgement.js"
import type { LedgerService } from "../../src/ledger/Ledger.js"
import { fakeIndexStore } from "./fakeIndexStore.js"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const until = async (what: () => boolean) => {
  for (let i = 0; i < 1_000 && !what(); i++) await sleep(5)
  expect(what()).toBe(true)
}

describe("a reset's acknowledgement", () => {
  it("waits for a go-back that started after the request, not for one under way", async () => {
    const ledger = { ledgerInfo: Effect.succeed({ ledgerVersion: 9n, chainId: 4 }) } as unknown as LedgerService
    const pipeline: Pipeline = {
      processorNames: ["p"],
      fingerprint: "reset-acknowledgement-test",
      batch: () =>
        Effect.succeed({ writes: [], lastVersion: 9n, lastHash: "0x00", lastTimestampUsec: 0n, transactions: 10 })
    }
    const fake = fakeIndexStore()
    let resets = 0
    let letGo: () => void = () => {}
    const firstResetHeld = new Promise<void>((resolve) => {
      letGo = resolve
    })
    const store = {
      ...fake.store,
      // The first reset (the rewind's: no undo log) waits; the next ones do not.
      reset: Effect.suspend(() => {
        resets++
        return resets === 1
          ? Effect.andThen(
              Effect.promise(() => firstResetHeld),
              fake.store.reset
            )
          : fake.store.reset
      })
    } as IndexerStoreService
    const acks = makeResetAcknowledgement(0, undefined)
    const reported: Array<{ readonly lastGoBackDone: number; readonly acknowledged: number }> = []
    const scope = Effect.runSync(Scope.make())
    try {
      const follower = await Effect.runPromise(
        Scope.provide(
          followLedger(store, ledger, {
            pipeline,
            onProgress: (_, lastGoBackDone) =>
              reported.push({ lastGoBackDone, acknowledged: acks.acknowledged(lastGoBackDone) })
          }),
          scope
        )
      )
      await until(() => fake.indexed() === 9n)
      // Reset 1 (a rewind) is asked and starts; reset 2 (a reindex) is asked while it is under way.
      acks.asked(1, follower.goBacksStarted())
      Effect.runSync(follower.requestRewind)
      await until(() => resets === 1)
      acks.asked(2, follower.goBacksStarted())
      Effect.runSync(follower.requestReset)
      letGo()
      await until(() => reported.some((r) => r.acknowledged === 2))
      expect(resets).toBe(2)
      // When the rewind under way was done, the reindex asked after it was not acknowledged.
      const afterFirst = reported.filter((r) => r.lastGoBackDone === 1)
      expect(afterFirst.length).toBeGreaterThan(0)
      for (const r of afterFirst) expect(r.acknowledged).toBe(0)
      expect(reported.find((r) => r.acknowledged === 2)?.lastGoBackDone).toBe(2)
    } finally {
      await Effect.runPromise(Scope.close(scope, Effect.void as never))
    }
  })
})
