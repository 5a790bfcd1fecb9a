/**
 * The SQLite connection's durability settings: a file database is written ahead (WAL) and flushed
 * at its checkpoints (`synchronous = NORMAL`) unless opened with `fsync: false` (the local chain's
 * `--no-fsync`: `OFF`); a reader never writes.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import { afterAll, describe, expect, it } from "vitest"
import { makeSqliteClient } from "../../src/indexer/store/sqliteClient.js"

const dir = mkdtempSync(join(tmpdir(), "movenode-sqlite-client-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const pragmas = (file: string, options: Parameters<typeof makeSqliteClient>[1]) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.map(makeSqliteClient(join(dir, file), options), ({ db }) => {
        // libsql answers a pragma as rows of one column.
        const value = (name: string) => Object.values((db.pragma(name) as Array<Record<string, unknown>>)[0]!)[0]
        return {
          journal: String(value("journal_mode")),
          synchronous: Number(value("synchronous")),
          queryOnly: Number(value("query_only"))
        }
      })
    )
  )

describe("makeSqliteClient", () => {
  it("flushes at checkpoints by default (NORMAL), never with fsync: false (OFF); both in WAL", async () => {
    expect(await pragmas("default.sqlite", {})).toEqual({ journal: "wal", synchronous: 1, queryOnly: 0 })
    expect(await pragmas("unflushed.sqlite", { fsync: false })).toEqual({
      journal: "wal",
      synchronous: 0,
      queryOnly: 0
    })
  })

  it("opens a reader that refuses writes", async () => {
    await pragmas("shared.sqlite", {})
    expect((await pragmas("shared.sqlite", { reader: true })).queryOnly).toBe(1)
  })
})
