/**
 * The store's write rules over SQLite (the same rules over PostgreSQL: sameAnswers.test.ts): an
 * `Insert` whose key was written before — earlier in the same batch, or in an earlier batch — keeps
 * the first row (a replayed batch changes nothing); an `Upsert` merges with the stored row.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { describe, expect, it } from "vitest"
import { IndexerStore } from "../../src/indexer/store/IndexerStore.js"
import { sortableDecimal } from "../../src/indexer/store/values.js"

const A = `0x${"a".repeat(64)}`
const at = (version: bigint) => ({ version, hash: "0x00", timestampUsec: 0n, chainId: 4 })

describe("the store's writes", () => {
  it("an Insert keeps the first row of a key, within a batch and across batches", async () => {
    const rows = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const ctx = yield* Layer.build(IndexerStore.layer({ _tag: "Sqlite", path: ":memory:" }))
          const store = ctx.mapUnsafe.get(IndexerStore.key) as IndexerStore["Service"]
          const event = (type: string) => ({
            transaction_version: 7n,
            event_index: 0,
            account_address: A,
            creation_number: 0n,
            sequence_number: 0n,
            type,
            data: { n: type },
            indexed_type: type,
            transaction_block_height: 1n
          })
          yield* store.commit(
            [
              { _tag: "Insert", table: "events", rows: [event("first"), event("second")] },
              { _tag: "Insert", table: "events", rows: [event("third")] }
            ],
            at(7n),
            ["events_processor"]
          )
          yield* store.commit([{ _tag: "Insert", table: "events", rows: [event("replayed")] }], at(7n), [
            "events_processor"
          ])
          return yield* store.select(`SELECT "type" FROM "events"`, [])
        })
      )
    )
    expect(rows).toEqual([{ type: "first" }])
  })
})

describe("an Upsert over a stored row", () => {
  const B = `0x${"b".repeat(64)}`
  const C = `0x${"c".repeat(64)}`
  const store1 = `0x${"1".repeat(64)}`
  const store2 = `0x${"2".repeat(64)}`
  const FA = `0x${"0".repeat(63)}a`
  const balance = (storage_id: string, owner_address: string, amount: bigint, version: bigint) => ({
    storage_id,
    owner_address,
    asset_type_v2: FA,
    is_primary: true,
    is_frozen: false,
    amount_v2: amount,
    last_transaction_version_v2: version,
    last_transaction_timestamp_v2: "2026-01-01T00:00:00"
  })
  const upsert = (rows: ReadonlyArray<ReturnType<typeof balance>>) => ({
    _tag: "Upsert" as const,
    table: "current_fungible_asset_balances",
    guard: "last_transaction_version_v2",
    update: [
      "owner_address",
      "asset_type_v2",
      "amount_v2",
      "is_frozen",
      "last_transaction_version_v2",
      "last_transaction_timestamp_v2"
    ],
    rows
  })

  it("writes what changed: a row equal to the stored one not at all, an indexed column that changed moved in its index", async () => {
    const out = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const ctx = yield* Layer.build(IndexerStore.layer({ _tag: "Sqlite", path: ":memory:" }))
          const store = ctx.mapUnsafe.get(IndexerStore.key) as IndexerStore["Service"]
          const changes = store.select(`SELECT total_changes() AS n`, []).pipe(Effect.map((r) => Number(r[0]!.n)))
          const commit = (rows: ReadonlyArray<ReturnType<typeof balance>>, v: bigint) =>
            Effect.gen(function* () {
              const before = yield* changes
              yield* store.commit([upsert(rows)], at(v), ["fungible_asset_processor"])
              return (yield* changes) - before
            })
          yield* commit([balance(store1, B, 100n, 1n), balance(store2, C, 5n, 1n)], 1n)
          const positionOnly = yield* commit([], 1n)
          // The same rows again (a replayed batch): nothing to write but the position.
          const same = yield* commit([balance(store1, B, 100n, 1n), balance(store2, C, 5n, 1n)], 1n)
          // An amount (no index names it) and an owner (indexed) changed.
          const changed = yield* commit([balance(store1, B, 90n, 2n), balance(store2, B, 5n, 2n)], 2n)
          const byOwner = (owner: string) =>
            store.select(
              `SELECT storage_id, amount FROM current_fungible_asset_balances INDEXED BY current_fungible_asset_balances_i0 WHERE owner_address = ? ORDER BY storage_id`,
              [owner]
            )
          return {
            positionOnly,
            same,
            changed,
            ownedByB: yield* byOwner(B),
            ownedByC: yield* byOwner(C),
            integrity: yield* store.select(`PRAGMA integrity_check`, [])
          }
        })
      )
    )
    // Each commit also writes its processor's status row and the position: a commit of no rows.
    expect(out.same).toBe(out.positionOnly)
    expect(out.changed - out.positionOnly).toBe(2)
    expect(out.ownedByB).toEqual([
      { storage_id: store1, amount: sortableDecimal("90") },
      { storage_id: store2, amount: sortableDecimal("5") }
    ])
    expect(out.ownedByC).toEqual([])
    expect(out.integrity).toEqual([{ integrity_check: "ok" }])
  })
})

describe("a processor's bad rows", () => {
  it("fail the whole batch with a WriteError (a wrong value, an unknown column, a missing key): nothing is stored", async () => {
    const outcome = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const ctx = yield* Layer.build(IndexerStore.layer({ _tag: "Sqlite", path: ":memory:" }))
          const store = ctx.mapUnsafe.get(IndexerStore.key) as IndexerStore["Service"]
          const good = { transaction_version: 7n, event_index: 0, account_address: A, type: "t", data: {} }
          const bad = [
            { ...good, event_index: 1, sequence_number: "not a number" },
            { ...good, event_index: 2, no_such_column: 1 },
            { ...good, event_index: undefined }
          ]
          const errors: string[] = []
          for (const row of bad) {
            const r = yield* Effect.result(
              store.commit([{ _tag: "Insert", table: "events", rows: [good, row as never] }], at(7n), [
                "events_processor"
              ])
            )
            errors.push(r._tag === "Failure" ? `${r.failure.constructor.name}: ${r.failure.message}` : "stored")
          }
          const rows = yield* store.select(`SELECT count(*) AS n FROM "events"`, [])
          return { errors, rows, position: yield* store.position }
        })
      )
    )
    expect(outcome.errors).toEqual([
      expect.stringMatching(/^WriteError: events\.sequence_number: string not a number is not a bigint/),
      "WriteError: events has no column no_such_column",
      "WriteError: events: key column event_index is missing"
    ])
    expect(outcome.rows).toEqual([{ n: 0n }])
    expect(outcome.position).toBeUndefined()
  })
})

describe("a new index", () => {
  it("starts with every processor's status row at version −1 (never an empty processor_status)", async () => {
    const rows = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const ctx = yield* Layer.build(
            IndexerStore.layer({ _tag: "Sqlite", path: ":memory:" }, { processorNames: ["a_processor", "b_processor"] })
          )
          const store = ctx.mapUnsafe.get(IndexerStore.key) as IndexerStore["Service"]
          const before = yield* store.select(
            `SELECT processor, last_success_version FROM processor_status ORDER BY processor`,
            []
          )
          yield* store.reset
          const afterReset = yield* store.select(`SELECT count(*) AS n FROM processor_status`, [])
          return { before, afterReset }
        })
      )
    )
    expect(rows.before.map((r) => [r.processor, String(r.last_success_version)])).toEqual([
      ["a_processor", "-1"],
      ["b_processor", "-1"]
    ])
    expect(rows.afterReset).toEqual([{ n: 2n }])
  })
})

describe("a reset", () => {
  it("empties every table and the position, keeps the schema (SQLite's schema version unchanged), and takes batches again", async () => {
    const out = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const ctx = yield* Layer.build(
            IndexerStore.layer({ _tag: "Sqlite", path: ":memory:" }, { processorNames: ["events_processor"] })
          )
          const store = ctx.mapUnsafe.get(IndexerStore.key) as IndexerStore["Service"]
          const event = (version: bigint) => ({
            transaction_version: version,
            event_index: 0,
            account_address: A,
            type: "t",
            data: {}
          })
          const count = Effect.map(store.select(`SELECT count(*) AS n FROM "events"`, []), (r) => r[0]!.n)
          const schemaVersion = Effect.map(store.select(`PRAGMA schema_version`, []), (r) => r[0]!.schema_version)
          yield* store.commit([{ _tag: "Insert", table: "events", rows: [event(1n), event(2n)] }], at(2n), [
            "events_processor"
          ])
          const before = {
            rows: yield* count,
            position: (yield* store.position)?.version,
            schema: yield* schemaVersion
          }
          yield* store.reset
          const status = yield* store.select(`SELECT processor, last_success_version FROM processor_status`, [])
          const after = { rows: yield* count, position: (yield* store.position)?.version, schema: yield* schemaVersion }
          yield* store.commit([{ _tag: "Insert", table: "events", rows: [event(1n)] }], at(1n), ["events_processor"])
          const again = { rows: yield* count, position: (yield* store.position)?.version }
          return { before, after, status, again }
        })
      )
    )
    expect(out.before).toMatchObject({ rows: 2n, position: 2n })
    expect(out.after).toEqual({ rows: 0n, position: undefined, schema: out.before.schema })
    expect(out.status.map((r) => [r.processor, String(r.last_success_version)])).toEqual([["events_processor", "-1"]])
    expect(out.again).toEqual({ rows: 1n, position: 1n })
  })
})
