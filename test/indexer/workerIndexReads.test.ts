/**
 * GraphQL's reads of a SQLite index on a worker thread (`WorkerIndexReads`, with the built worker
 * `dist/bin/indexReadsWorker.js`): the rows come back as the main thread's own connection reads them
 * (integers as bigints, LIKE case-sensitive), a long scan leaves this thread free to run meanwhile,
 * statements past the queue's bound are refused at once (busy), and SQL errors come back as errors.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  IndexerStore,
  type IndexerStoreConfig,
  type IndexerStoreService,
  type IndexReads,
  openIndexReads
} from "../../src/indexer/store/IndexerStore.js"
import { openWorkerIndexReads } from "../../src/indexer/worker/WorkerIndexReads.js"
import { userTransactionRows } from "../support/indexRows.js"

const workerUrl = new URL("../../dist/bin/indexReadsWorker.js", import.meta.url)
const dir = mkdtempSync(join(tmpdir(), "movenode-worker-reads-"))
const config: IndexerStoreConfig = { _tag: "Sqlite", path: join(dir, "index.sqlite") }
let scope: Scope.Closeable
let reads: IndexReads
let local: IndexReads

/** A statement that counts to `n` (a recursive CTE): CPU in SQLite, as long as `n` makes it. */
const countTo = (n: number) =>
  `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${n}) SELECT count(*) AS n FROM c`

beforeAll(async () => {
  scope = await Effect.runPromise(Scope.make())
  const ctx = await Effect.runPromise(Layer.buildWithScope(IndexerStore.layer(config), scope))
  const store = ctx.mapUnsafe.get(IndexerStore.key) as IndexerStoreService
  await Effect.runPromise(
    store.commit(
      [
        {
          _tag: "Insert",
          table: "user_transactions",
          rows: userTransactionRows([1n, 2n], "0x1::aptos_account::Transfer")
        }
      ],
      { version: 2n, hash: "0x02", timestampUsec: 0n, chainId: 4 },
      ["user_transaction_processor"]
    )
  )
  reads = await Effect.runPromise(Scope.provide(scope)(openWorkerIndexReads(config, workerUrl, 4)))
  local = await Effect.runPromise(Scope.provide(scope)(openIndexReads(config)))
})

afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  rmSync(dir, { recursive: true, force: true })
})

describe.skipIf(!existsSync(workerUrl))("the index's reads on a worker thread", () => {
  it("answer as the main thread's connection does", async () => {
    const statements: Array<[string, unknown[]]> = [
      ["SELECT version, sender, gas_unit_price FROM user_transactions ORDER BY version", []],
      ["SELECT count(*) AS n FROM user_transactions WHERE entry_function_id_str LIKE ?", ["%transfer"]],
      ["SELECT count(*) AS n FROM user_transactions WHERE entry_function_id_str LIKE ?", ["%Transfer"]],
      ["SELECT version FROM user_transactions WHERE version > ?", [1n]]
    ]
    for (const [sql, params] of statements) {
      const there = await Effect.runPromise(reads.select(sql, params))
      expect(there).toEqual(await Effect.runPromise(local.select(sql, params)))
    }
    const rows = await Effect.runPromise(reads.select(statements[0]![0], []))
    expect(typeof rows[0]!.version).toBe("bigint")
  })

  it("leave this thread free while a statement runs", async () => {
    // A timer on this thread keeps firing while the statement runs (on this thread it could not:
    // SQLite's call is synchronous).
    let ticks = 0
    const timer = setInterval(() => ticks++, 5)
    const rows = await Effect.runPromise(reads.select(countTo(10_000_000), []))
    clearInterval(timer)
    expect(rows[0]!.n).toBe(10_000_000n)
    expect(ticks).toBeGreaterThanOrEqual(3)
  })

  it("refuse statements past the queue's bound at once, and take more once it drains", async () => {
    const exits = await Promise.all(
      Array.from({ length: 10 }, () => Effect.runPromiseExit(reads.select(countTo(1_000_000), [])))
    )
    const refused = exits.filter((e) => Exit.isFailure(e) && /busy/.test(String(e.cause)))
    expect(exits.filter(Exit.isSuccess)).toHaveLength(4)
    expect(refused).toHaveLength(6)
    const next = await Effect.runPromise(reads.select("SELECT count(*) AS n FROM user_transactions", []))
    expect(next[0]!.n).toBe(2n)
  })

  it("fail on a statement SQLite refuses", async () => {
    const bad = await Effect.runPromiseExit(reads.select("SELECT nope FROM user_transactions", []))
    expect(Exit.isFailure(bad)).toBe(true)
    expect(String(Exit.isFailure(bad) ? bad.cause : "")).toMatch(/no such column/)
  })
})
