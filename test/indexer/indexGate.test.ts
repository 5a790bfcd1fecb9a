/**
 * The chain waits for its index (indexer/engine/indexGate.ts): past LAG_MAX versions behind, the
 * gate waits for the index to come within LAG_RESUME, at most WAIT_MAX_MS; never before the index
 * has reached the ledger's head once, never again after it went back (a re-index) until it has,
 * and never for a failing index.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { IndexerHealth, IndexerService } from "../../src/indexer/engine/Indexer.js"
import { indexGate, LAG_MAX, LAG_RESUME, WAIT_MAX_MS } from "../../src/indexer/engine/indexGate.js"
import type { LedgerService } from "../../src/ledger/Ledger.js"

/** A fake index at `indexed` (state as given) under a ledger at `head`; records what was waited for. */
const setup = () => {
  const at = { head: 0n, indexed: 0n, state: "caught-up" as IndexerHealth["state"] }
  const waits: Array<readonly [bigint, number]> = []
  const indexer = {
    health: Effect.sync(
      (): IndexerHealth => ({
        state: at.state,
        indexedVersion: at.indexed,
        lastError: undefined,
        batches: 0,
        transactions: 0,
        rewindsUndone: 0,
        rebuilds: 0
      })
    ),
    waitFor: (version: bigint, timeoutMs: number) =>
      Effect.sync(() => {
        waits.push([version, timeoutMs])
        return true
      })
  } as unknown as IndexerService
  const ledger = { ledgerInfo: Effect.sync(() => ({ ledgerVersion: at.head })) } as unknown as LedgerService
  return { at, waits, gate: indexGate(indexer, ledger) }
}

describe("the chain's gate on its index", () => {
  it.effect("waits while the index is more than LAG_MAX behind, for LAG_RESUME, at most WAIT_MAX_MS", () =>
    Effect.gen(function* () {
      const { at, waits, gate } = setup()
      at.head = 100n
      at.indexed = 100n
      yield* gate // caught up: following from now on
      at.head = 100n + LAG_MAX
      at.state = "catching-up"
      yield* gate
      assert.deepStrictEqual(waits, [], "LAG_MAX behind: no wait")
      at.head = 101n + LAG_MAX
      yield* gate
      assert.deepStrictEqual(waits, [[101n + LAG_MAX - LAG_RESUME, WAIT_MAX_MS]])
    })
  )

  it.effect("does not wait before the index has reached the head once, nor for a failing index", () =>
    Effect.gen(function* () {
      const { at, waits, gate } = setup()
      at.state = "catching-up"
      at.head = 50_000n
      yield* gate
      assert.deepStrictEqual(waits, [], "catching up on history")
      at.indexed = 50_000n
      at.state = "caught-up"
      yield* gate
      at.head = 60_000n
      at.state = "failing"
      yield* gate
      assert.deepStrictEqual(waits, [], "failing")
    })
  )

  it.effect("after the index went back (a re-index), waits again only once it has caught up", () =>
    Effect.gen(function* () {
      const { at, waits, gate } = setup()
      at.head = 5_000n
      at.indexed = 5_000n
      yield* gate
      at.indexed = 0n
      at.state = "catching-up"
      yield* gate
      assert.deepStrictEqual(waits, [])
      at.indexed = 5_000n
      at.state = "caught-up"
      yield* gate
      at.head = 7_000n
      at.state = "catching-up"
      yield* gate
      assert.deepStrictEqual(waits, [[7_000n - LAG_RESUME, WAIT_MAX_MS]])
    })
  )
})
