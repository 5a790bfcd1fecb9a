/**
 * Closing an LMDB ledger while a block's commit is still on lmdb-js's write thread, then opening
 * the same directory again in the same process (a test suite restarting a chain, `LocalChain`
 * stopped and spawned again): the close waits for the pending write, so the new store's opening
 * transaction does not wait forever for a write lock whose holder waits for this thread.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Exit, Scope } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import * as LedgerLmdb from "../../src/ledger/LedgerLmdb.js"
import { checkpointTxn, toCommit } from "./fixtures.js"

const dir = mkdtempSync(join(tmpdir(), "movenode-reopen-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("an LMDB ledger closed with a commit in flight", () => {
  it("closes after the commit and opens again at once", async () => {
    const pendings: Array<Promise<unknown>> = []
    for (let round = 0; round < 20; round++) {
      const scope = Effect.runSync(Scope.make())
      const handle = await Effect.runPromise(Scope.provide(LedgerLmdb.open({ path: dir, chainId: 4 }), scope))
      // The commit is started, not awaited: the scope closes while it is on the write thread.
      const block = {
        epoch: 1n,
        timestampUsec: BigInt(round + 1),
        transactions: [toCommit(checkpointTxn(round), [[round, round]])]
      }
      const pending = Effect.runPromise(Effect.exit(handle.service.commitBlock(block)))
      await Effect.runPromise(Scope.close(scope, Exit.void))
      pendings.push(pending)
    }
    await Promise.all(pendings)
    const scope = Effect.runSync(Scope.make())
    const handle = await Effect.runPromise(Scope.provide(LedgerLmdb.open({ path: dir, chainId: 4 }), scope))
    // Every commit was durable before its store closed.
    expect((await Effect.runPromise(handle.service.ledgerInfo)).ledgerVersion).toBe(19n)
    await Effect.runPromise(Scope.close(scope, Exit.void))
  })
})
