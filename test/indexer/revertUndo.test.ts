/**
 * A revert of a local chain with the indexer on, as a test suite makes it (snapshot, transactions,
 * revert, more transactions): the index goes back by its undo log — no rebuild from genesis — and
 * every table then holds exactly the rows a rebuild from genesis gives, on the chain's thread and
 * in the indexer's worker thread (`npm run build` first: the worker is the build's script).
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Account, Ed25519PrivateKey } from "@aptos-labs/ts-sdk"
import * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import type { IndexerService } from "../../src/indexer/index.js"
import { catalogueTables } from "../../src/indexer/schema/index.js"
import { indexedLocalChain } from "../support/indexedLocalChain.js"

const workerUrl = new URL("../../dist/bin/indexerWorker.js", import.meta.url)

/** Every table's rows in key order (`processor_status` without its wall-clock `last_updated`). */
const dump = (indexer: IndexerService) =>
  Effect.gen(function* () {
    const out: Record<string, ReadonlyArray<Record<string, unknown>>> = {}
    for (const t of catalogueTables) {
      if (t.view !== undefined) continue
      const columns = t.columns.filter((c) => !(t.name === "processor_status" && c.name === "last_updated"))
      out[t.name] = yield* indexer.store.select(
        `SELECT ${columns.map((c) => `"${c.name}"`).join(", ")} FROM "${t.name}" ORDER BY ${(t.primaryKey.length > 0 ? t.primaryKey : columns.map((c) => c.name)).map((c) => `"${c}"`).join(", ")}`,
        []
      )
    }
    return out
  })

describe.each([
  { name: "on the chain's thread", indexerWorker: false as const },
  { name: "in its worker thread", indexerWorker: workerUrl }
])("a revert with the indexer on, $name", ({ indexerWorker }) => {
  it("takes the index back by its undo log, to the rows a rebuild from genesis gives", async () => {
    const dataDir = indexerWorker === false ? undefined : mkdtempSync(join(tmpdir(), "movenode-undo-"))
    try {
      await Effect.runPromise(
        Effect.scoped(
          Effect.gen(function* () {
            const { chain, indexer, alice, transfer, caughtUp } = yield* indexedLocalChain({
              accounts: 2,
              dataDir,
              indexerWorker
            })
            const bob = Account.fromPrivateKey({
              privateKey: new Ed25519PrivateKey(chain.accounts[1]!.privateKey)
            }).accountAddress
            yield* transfer(Account.generate().accountAddress.toString(), 100)
            yield* caughtUp
            const snapshot = yield* chain.controls.snapshot
            // Accounts created, balances changed (upserted rows), history added; then gone again.
            yield* transfer(Account.generate().accountAddress.toString(), 200)
            yield* transfer(bob.toString(), 300)
            yield* transfer(Account.generate().accountAddress.toString(), 400)
            yield* caughtUp
            yield* chain.controls.revert(snapshot)
            yield* transfer(Account.generate().accountAddress.toString(), 500)
            yield* transfer(bob.toString(), 600)
            yield* caughtUp
            const health = yield* indexer.health
            expect(health.rewindsUndone).toBeGreaterThanOrEqual(1)
            expect(health.rebuilds).toBe(0)
            const undone = yield* dump(indexer)
            // The reverted transfers are gone from the history tables.
            const alices = undone.user_transactions!.filter((r) => r.sender === alice.accountAddress.toStringLong())
            expect(alices.length).toBe(3)
            yield* indexer.reindex
            yield* caughtUp
            expect((yield* indexer.health).rebuilds).toBe(1)
            expect(undone).toEqual(yield* dump(indexer))
          })
        )
      )
    } finally {
      if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
