/**
 * The index's undo log (src/indexer/store/undoLog.ts): going back to a batch's end leaves every
 * table exactly as an index that only ever committed the batches up to it — history rows deleted,
 * upserted rows put back as they were (guarded and plain upserts, keys created and changed several
 * times), rows kept from their first writer kept — and the log goes on after it. Checked with
 * fast-check over random histories, on SQLite (sameAnswers.test.ts runs the chain's revert over
 * PostgreSQL too); and the cells' JSON codec.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { IndexerStore, type IndexerStoreService } from "../../src/indexer/store/IndexerStore.js"
import { cellsFromJson, cellsToJson, type UndoPoint } from "../../src/indexer/store/undoLog.js"
import type { StoreWrite } from "../../src/indexer/store/writes.js"

const STORES = [`0x${"1".repeat(64)}`, `0x${"2".repeat(64)}`, `0x${"3".repeat(64)}`]
const POOLS = [`0x${"4".repeat(64)}`, `0x${"5".repeat(64)}`]

interface BatchSpec {
  readonly events: ReadonlyArray<number>
  readonly balances: ReadonlyArray<{ readonly store: number; readonly amount: number; readonly guarded: boolean }>
  readonly pools: ReadonlyArray<number>
}

const batchSpec: fc.Arbitrary<BatchSpec> = fc.record({
  events: fc.uniqueArray(fc.integer({ min: 0, max: 3 }), { maxLength: 3 }),
  balances: fc.array(
    fc.record({ store: fc.integer({ min: 0, max: 2 }), amount: fc.nat(1_000), guarded: fc.boolean() }),
    { maxLength: 4 }
  ),
  pools: fc.array(fc.integer({ min: 0, max: 1 }), { maxLength: 2 })
})

/** Batch `i` (from 1) ends at version 10·i; its rows are of its versions. */
const writesOf = (i: number, b: BatchSpec): ReadonlyArray<StoreWrite> => {
  const version = BigInt(i * 10)
  const writes: StoreWrite[] = []
  if (b.events.length > 0)
    writes.push({
      _tag: "Insert",
      table: "events",
      rows: b.events.map((e) => ({
        transaction_version: version - BigInt(e),
        event_index: e,
        account_address: STORES[e % 3]!,
        type: `t${i}`,
        data: { batch: i, e }
      }))
    })
  for (const bal of b.balances) {
    const row = {
      storage_id: STORES[bal.store]!,
      owner_address: STORES[(bal.store + 1) % 3]!,
      amount_v2: String(bal.amount),
      asset_type_v2: "0xa",
      is_frozen: bal.amount % 2 === 0,
      is_primary: true,
      last_transaction_version_v2: version,
      last_transaction_timestamp_v2: "2026-12-01T00:00:00.000001",
      token_standard: "v2"
    }
    writes.push(
      bal.guarded
        ? {
            _tag: "Upsert",
            table: "current_fungible_asset_balances",
            rows: [row],
            guard: "last_transaction_version_v2"
          }
        : { _tag: "Upsert", table: "current_fungible_asset_balances", rows: [row] }
    )
  }
  if (b.pools.length > 0)
    writes.push({
      _tag: "Insert",
      table: "delegated_staking_pools",
      rows: b.pools.map((p) => ({ staking_pool_address: POOLS[p]!, first_transaction_version: version }))
    })
  return writes
}

const pointOf = (i: number): UndoPoint => ({
  version: BigInt(i * 10),
  hash: `0x${i.toString(16).padStart(64, "0")}`,
  timestampUsec: BigInt(i) * 1_000_000n,
  accumulator: `0x${(i + 7).toString(16).padStart(64, "0")}`
})
const positionOf = (i: number) => ({
  version: BigInt(i * 10),
  hash: pointOf(i).hash,
  timestampUsec: pointOf(i).timestampUsec,
  chainId: 4
})
const NAMES = ["fungible_asset_processor", "events_processor"]

/** What the index answers: the tables written, the processors' status, the position. */
const contents = (store: IndexerStoreService) =>
  Effect.gen(function* () {
    return {
      events: yield* store.select(
        `SELECT transaction_version, event_index, account_address, type, data FROM events ORDER BY transaction_version, event_index`,
        []
      ),
      balances: yield* store.select(`SELECT * FROM current_fungible_asset_balances ORDER BY storage_id`, []),
      pools: yield* store.select(`SELECT * FROM delegated_staking_pools ORDER BY staking_pool_address`, []),
      status: yield* store.select(
        `SELECT processor, last_success_version, last_transaction_timestamp FROM processor_status ORDER BY processor`,
        []
      ),
      position: yield* store.position
    }
  })

const withStores = <A>(f: (a: IndexerStoreService, b: IndexerStoreService) => Effect.Effect<A, unknown>) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const open = Effect.map(
          Layer.build(IndexerStore.layer({ _tag: "Sqlite", path: ":memory:" }, { processorNames: NAMES })),
          (ctx) => ctx.mapUnsafe.get(IndexerStore.key) as IndexerStoreService
        )
        return yield* f(yield* open, yield* open)
      })
    )
  )

describe("the index's undo log", () => {
  it("going back to a batch's end leaves the index as if only the batches up to it were committed, and the log goes on", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(batchSpec, { minLength: 1, maxLength: 7 }),
        fc.nat(),
        batchSpec,
        async (batches, pick, next) => {
          const n = batches.length
          // A point from the first batch's start (0: none committed with a point before it) to the last.
          const k = pick % (n + 1)
          await withStores((logged, plain) =>
            Effect.gen(function* () {
              // The first batch starts from version 0 (a point the log records as its `from`).
              const start: UndoPoint = { ...pointOf(0), version: 0n }
              for (let i = 1; i <= n; i++)
                yield* logged.commit(writesOf(i, batches[i - 1]!), positionOf(i), NAMES, {
                  from: i === 1 ? start : pointOf(i - 1),
                  to: pointOf(i)
                })
              for (let i = 1; i <= k; i++) yield* plain.commit(writesOf(i, batches[i - 1]!), positionOf(i), NAMES)
              const points = yield* logged.undoPoints(BigInt(k * 10), 100)
              expect(points[0]?.version).toBe(BigInt(k * 10))
              yield* logged.goBackTo(points[0]!)
              const back = yield* contents(logged)
              const only = yield* contents(plain)
              if (k === 0) {
                // The plain index never committed: no position, every processor at −1.
                expect({ ...back, position: undefined, status: only.status }).toEqual({ ...only })
                expect(back.position?.version).toBe(0n)
              } else expect(back).toEqual(only)
              // Nothing above the point is left in the log, and the next batch is logged as usual.
              expect((yield* logged.undoPoints(10_000n, 100)).map((p) => p.version)).toEqual(
                Array.from({ length: k + 1 }, (_, j) => BigInt((k - j) * 10))
              )
              yield* logged.commit(writesOf(k + 1, next), positionOf(k + 1), NAMES, {
                from: k === 0 ? start : pointOf(k),
                to: pointOf(k + 1)
              })
              yield* plain.commit(writesOf(k + 1, next), positionOf(k + 1), NAMES)
              expect(yield* contents(logged)).toEqual(yield* contents(plain))
            })
          )
        }
      ),
      { numRuns: 40 }
    )
  })

  it("going back to the newest point changes nothing; dropping the log leaves no point", async () => {
    await withStores((store) =>
      Effect.gen(function* () {
        const b: BatchSpec = { events: [0, 1], balances: [{ store: 0, amount: 5, guarded: true }], pools: [0] }
        yield* store.commit(writesOf(1, b), positionOf(1), NAMES, { from: undefined, to: pointOf(1) })
        const before = yield* contents(store)
        yield* store.goBackTo(pointOf(1))
        expect(yield* contents(store)).toEqual(before)
        yield* store.dropUndo
        expect(yield* store.undoPoints(1_000n, 10)).toEqual([])
        // A reset empties the log with the rows.
        yield* store.commit(writesOf(2, b), positionOf(2), NAMES, { from: undefined, to: pointOf(2) })
        yield* store.reset
        expect(yield* store.undoPoints(1_000n, 10)).toEqual([])
      })
    )
  })

  it("keeps the newest points only: going back to the oldest kept is exact, below it there is no point", async () => {
    await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const open = (undoPointsKept?: number) =>
            Effect.map(
              Layer.build(
                IndexerStore.layer({ _tag: "Sqlite", path: ":memory:" }, { processorNames: NAMES, undoPointsKept })
              ),
              (ctx) => ctx.mapUnsafe.get(IndexerStore.key) as IndexerStoreService
            )
          const logged = yield* open(3)
          const plain = yield* open()
          const b = (i: number): BatchSpec => ({
            events: [i % 4],
            balances: [{ store: i % 3, amount: i, guarded: i % 2 === 0 }],
            pools: [i % 2]
          })
          for (let i = 1; i <= 9; i++)
            yield* logged.commit(writesOf(i, b(i)), positionOf(i), NAMES, {
              from: i === 1 ? undefined : pointOf(i - 1),
              to: pointOf(i)
            })
          // Pruned every 3 records (fewer than 256 kept): at most 3 + 2 points since the last pruning.
          const kept = (yield* logged.undoPoints(1_000n, 100)).map((p) => p.version)
          expect(kept).toEqual([90n, 80n, 70n])
          expect(yield* logged.undoPoints(60n, 100)).toEqual([])
          // Nothing prior to the oldest kept point is left in the log…
          const rows = yield* logged.select(`SELECT version FROM indexer_undo_rows ORDER BY version`, [])
          expect(rows.every((r) => BigInt(String(r.version)) > 70n)).toBe(true)
          // …and going back to it is exact.
          yield* logged.goBackTo(pointOf(7))
          for (let i = 1; i <= 7; i++) yield* plain.commit(writesOf(i, b(i)), positionOf(i), NAMES)
          expect(yield* contents(logged)).toEqual(yield* contents(plain))
        })
      )
    )
  })

  it("the cells' JSON: any cells come back as they were (bigints included)", () => {
    const cell = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.boolean(),
      fc.bigInt({ min: -(1n << 80n), max: 1n << 80n }),
      fc.constant(null)
    )
    fc.assert(
      fc.property(fc.array(cell), fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9_]{0,20}$/), cell), (list, record) => {
        expect(cellsFromJson(cellsToJson(list))).toEqual(list)
        expect(cellsFromJson(cellsToJson(record))).toEqual(record)
      })
    )
  })
})
