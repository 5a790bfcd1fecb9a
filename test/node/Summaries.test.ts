import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import fc from "fast-check"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { Ledger } from "../../src/ledger/Ledger.js"
import type { SummaryPage } from "../../src/node/Summaries.js"
import type { WithLedger } from "../../src/node/WithLedger.js"
import { makeNodeConfig } from "../../src/node/NodeConfig.js"
import { clampLimit, Summaries } from "../../src/node/Summaries.js"
import { block, commitAll, servicesLayer, toCommit, userTransaction } from "./fixtures.js"

const ALICE = addressFromNumber(0xa11ce)
const BOB = addressFromNumber(0xb0b)

/**
 * 30 blocks of epoch 1; block i holds Alice's transaction i (sequence number i) and a transaction of
 * Bob's, so Alice's versions are spread out and interleaved with another sender's.
 */
const aliceAndBob = (count: number) =>
  commitAll(
    Array.from({ length: count }, (_, i) =>
      block(1n, BigInt(i), [
        toCommit(userTransaction(ALICE, BigInt(i), 100n)),
        toCommit(userTransaction(BOB, BigInt(i), 100n))
      ])
    )
  )

type SummaryRequestOf = Parameters<Summaries["Service"]["page"]>[1]

/** Blocks `first`..`first + count - 1` of the same shape as `aliceAndBob`'s. */
const aliceAndBobFrom = (first: number, count: number) =>
  commitAll(
    Array.from({ length: count }, (_, k) => {
      const i = first + k
      return block(1n, BigInt(i), [
        toCommit(userTransaction(ALICE, BigInt(i), 100n)),
        toCommit(userTransaction(BOB, BigInt(i), 100n))
      ])
    })
  )

const versionsOf = (page: { readonly summaries: ReadonlyArray<{ readonly version: bigint }> }) =>
  page.summaries.map((s) => s.version)

describe("Summaries", () => {
  it("clamps the limit to the maximum page size", () => {
    assert.strictEqual(clampLimit(undefined, 100), 100)
    assert.strictEqual(clampLimit(1000, 100), 100)
    assert.strictEqual(clampLimit(7, 100), 7)
    assert.strictEqual(clampLimit(0, 100), 0)
    fc.assert(
      fc.property(fc.option(fc.double(), { nil: undefined }), fc.integer({ min: 1, max: 65535 }), (limit, max) => {
        const clamped = clampLimit(limit, max)
        return Number.isInteger(clamped) && clamped >= 0 && clamped <= max && (limit !== undefined || clamped === max)
      })
    )
  })

  it.effect("pages through an account's transactions with the cursor, ascending, sender only", () =>
    Effect.gen(function* () {
      yield* aliceAndBob(30)
      const summaries = yield* Summaries
      const seen: bigint[] = []
      let start: bigint | undefined = 0n
      let pages = 0
      while (start !== undefined) {
        const { value }: WithLedger<SummaryPage> = yield* summaries.page(ALICE, { startVersion: start, limit: 7 })
        for (const s of value.summaries) assert.deepStrictEqual(s.sender, ALICE)
        seen.push(...versionsOf(value))
        start = value.cursor
        pages++
        if (value.cursor !== undefined)
          assert.strictEqual(value.cursor, value.summaries[value.summaries.length - 1]!.version + 1n)
      }
      assert.strictEqual(seen.length, 30)
      assert.strictEqual(pages, 5) // 7 + 7 + 7 + 7 + 2: the last page is not full, so no cursor
      for (let i = 1; i < seen.length; i++) assert.isTrue(seen[i]! > seen[i - 1]!)
      const ledger = yield* Ledger
      for (const v of seen) {
        const t = yield* ledger.transactionByVersion(v)
        assert.strictEqual(t.transaction._tag, "UserTransaction")
      }
      // Sequence numbers come back as the replay protector, in order.
      const { value } = yield* summaries.page(ALICE, { startVersion: 0n, limit: 3 })
      assert.deepStrictEqual(
        value.summaries.map((s) => s.replayProtector),
        [0n, 1n, 2n].map((n) => ({ _tag: "SequenceNumber" as const, sequenceNumber: n }))
      )
    }).pipe(Effect.provide(servicesLayer()))
  )

  it.effect("without bounds answers the most recent page, ascending; a too large limit is clamped", () =>
    Effect.gen(function* () {
      yield* aliceAndBob(120)
      const summaries = yield* Summaries
      const { ledger, value } = yield* summaries.page(ALICE, { limit: 5000 })
      assert.strictEqual(value.summaries.length, 100)
      const all = versionsOf((yield* summaries.page(ALICE, { startVersion: 0n, limit: 100 })).value)
      const rest = versionsOf((yield* summaries.page(ALICE, { startVersion: all[99]! + 1n })).value)
      const everything = [...all, ...rest]
      assert.strictEqual(everything.length, 120)
      assert.deepStrictEqual(versionsOf(value), everything.slice(20))
      // The newest page (no start_version) has no later page to point to.
      assert.isUndefined(value.cursor)
      assert.isTrue(ledger.ledgerVersion >= everything[119]!)
      // Absent limit = the maximum page size.
      assert.strictEqual((yield* summaries.page(ALICE, {})).value.summaries.length, 100)
    }).pipe(Effect.provide(servicesLayer()))
  )

  it.effect("honours both bounds, and the end bound alone", () =>
    Effect.gen(function* () {
      yield* aliceAndBob(20)
      const summaries = yield* Summaries
      const all = versionsOf((yield* summaries.page(ALICE, { startVersion: 0n })).value)
      const inRange = all.filter((v) => v >= all[3]! && v <= all[8]!)
      const both = yield* summaries.page(ALICE, { startVersion: all[3]!, endVersion: all[8]!, limit: 50 })
      assert.deepStrictEqual(versionsOf(both.value), inRange)
      assert.isUndefined(both.value.cursor)
      const endOnly = yield* summaries.page(ALICE, { endVersion: all[8]!, limit: 4 })
      assert.deepStrictEqual(versionsOf(endOnly.value), all.slice(5, 9))
      assert.isUndefined(endOnly.value.cursor)
      // A full page inside the range points to the next one; a full page ending at end_version does not.
      const first = yield* summaries.page(ALICE, { startVersion: all[3]!, endVersion: all[8]!, limit: 3 })
      assert.deepStrictEqual(versionsOf(first.value), all.slice(3, 6))
      assert.strictEqual(first.value.cursor, all[5]! + 1n)
      const second = yield* summaries.page(ALICE, { startVersion: first.value.cursor!, endVersion: all[8]!, limit: 3 })
      assert.deepStrictEqual(versionsOf(second.value), all.slice(6, 9))
      assert.isUndefined(second.value.cursor)
    }).pipe(Effect.provide(servicesLayer()))
  )

  it.effect("answers [] for an unknown account and for limit 0", () =>
    Effect.gen(function* () {
      yield* aliceAndBob(3)
      const summaries = yield* Summaries
      const unknown = yield* summaries.page(addressFromNumber(0xdead), {})
      assert.deepStrictEqual(unknown.value, { summaries: [], cursor: undefined })
      const zero = yield* summaries.page(ALICE, { limit: 0 })
      assert.deepStrictEqual(zero.value, { summaries: [], cursor: undefined })
    }).pipe(Effect.provide(servicesLayer()))
  )

  it.effect("reports an orderless transaction's nonce", () =>
    Effect.gen(function* () {
      yield* commitAll([block(1n, 0n, [toCommit(userTransaction(ALICE, 0n, 100n, { nonce: 42n }))])])
      const { value } = yield* (yield* Summaries).page(ALICE, {})
      assert.deepStrictEqual(
        value.summaries.map((s) => s.replayProtector),
        [{ _tag: "Nonce", nonce: 42n }]
      )
    }).pipe(Effect.provide(servicesLayer()))
  )

  it.effect("is 410 version_pruned for a bound below the pruning window", () =>
    Effect.gen(function* () {
      yield* aliceAndBob(30)
      const summaries = yield* Summaries
      const { ledger } = yield* summaries.page(ALICE, {})
      assert.isTrue(ledger.oldestLedgerVersion > 0n)
      for (const query of [{ startVersion: 0n }, { endVersion: ledger.oldestLedgerVersion - 1n }]) {
        const error = yield* Effect.flip(summaries.page(ALICE, query))
        assert.strictEqual(error.status, 410)
        assert.strictEqual(error.code, "version_pruned")
        assert.deepStrictEqual(error.ledger, ledger)
      }
      const kept = yield* summaries.page(ALICE, { startVersion: ledger.oldestLedgerVersion })
      for (const s of kept.value.summaries) assert.isTrue(s.version >= ledger.oldestLedgerVersion)
      assert.isAbove(kept.value.summaries.length, 0)
    }).pipe(Effect.provide(servicesLayer({ chainId: 4, pruneWindow: 20 }, makeNodeConfig({ maxPageSize: 100 }))))
  )

  // The page cache (NodeConfig.summaryPageCache, here small enough to evict) answers exactly what
  // reading every page from the ledger answers, across commits that change the head.
  it("answers the same pages with and without the page cache, across commits", async () => {
    const bound = fc.option(fc.bigInt({ min: 0n, max: 80n }), { nil: undefined })
    const query = fc.record({
      startVersion: bound,
      endVersion: bound,
      limit: fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined })
    })
    const run = (cacheSize: number, rounds: ReadonlyArray<ReadonlyArray<SummaryRequestOf>>) =>
      Effect.runPromise(
        Effect.gen(function* () {
          const summaries = yield* Summaries
          const answers: unknown[] = []
          for (const [round, queries] of rounds.entries()) {
            yield* aliceAndBobFrom(round * 4, 4)
            // Each query twice: the second may come from the cache.
            for (const q of [...queries, ...queries]) {
              const page = yield* Effect.result(summaries.page(ALICE, q))
              answers.push(page._tag === "Success" ? page.success.value : page.failure.code)
            }
          }
          return answers
        }).pipe(
          Effect.provide(servicesLayer(undefined, makeNodeConfig({ maxPageSize: 10, summaryPageCache: cacheSize })))
        )
      )
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(query, { maxLength: 6 }), { minLength: 1, maxLength: 4 }), async (rounds) => {
        const uncached = await run(0, rounds)
        assert.deepStrictEqual(await run(3, rounds), uncached)
      }),
      { numRuns: 25 }
    )
  })
})
