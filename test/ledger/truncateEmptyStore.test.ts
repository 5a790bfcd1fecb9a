/**
 * `truncateAfter` with blocks to append on a store that holds nothing yet: a fork's own store
 * before its first block, whose head is the fork's base (version V, height H), loading a fork's
 * dump (`forkRewind.ts`). Both stores write the blocks as their first ones; before this, both
 * returned without writing anything and the load answered as if it had.
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { baseAccumulator } from "../../src/fork/ForkIdentity.js"
import type { LedgerBackend, LedgerHead } from "../../src/ledger/LedgerBackend.js"
import { openLmdbBackend } from "../../src/ledger/LmdbBackend.js"
import { makeMemoryBackend } from "../../src/ledger/MemoryBackend.js"
import { prepareBlocksAfter } from "../../src/ledger/prepareBlock.js"
import { keyOf, tempDir } from "./fixtures.js"
import { blocksToCommit } from "./rewindBlocks.js"

const base: LedgerHead = {
  chainId: 4,
  latestVersion: 10n,
  latestHeight: 3n,
  epoch: 1n,
  timestampUsec: 1_000n,
  oldestVersion: 10n,
  oldestHeight: 3n,
  genesisHash: new Uint8Array(32),
  accumulator: baseAccumulator({ chainId: 4, version: 10n })
}

const appendOnEmpty = (backend: LedgerBackend) => {
  const blocks = blocksToCommit(
    base.timestampUsec,
    [
      [{ sender: 0, writes: [[1, 7]], event: true }],
      [
        { sender: 1, writes: [[2, 9]], event: false },
        { sender: undefined, writes: [], event: false }
      ]
    ],
    new Map(),
    1
  )
  const prepared = prepareBlocksAfter(base, blocks, {
    chainId: 4,
    window: undefined,
    storedBlockOfVersion: () => undefined
  })
  expect(backend.head()).toBeUndefined()
  backend.truncateAfter!(base, prepared)
  const head = backend.head()!
  expect([head.latestVersion, head.latestHeight]).toEqual([13n, 5n])
  for (const v of [11n, 12n, 13n]) expect(backend.transaction(v)?.version).toBe(v)
  expect(backend.transaction(13n)?.accumulatorRootHash).toEqual(prepared[1]!.transactions[1]!.accumulatorRootHash)
  const written = prepared[0]!.transactions[0]!.writeSet.entries[0]!.op
  expect(backend.stateGet(keyOf(1), 13n)?.value).toEqual("data" in written ? written.data : undefined)
  expect(backend.stateGet(keyOf(2), 13n)?.version).toBe(12n)
  expect(backend.blockOfVersion(12n)?.height).toBe(5n)
}

describe("truncateAfter on a store with nothing yet", () => {
  it("writes the blocks to append as its first (memory)", () => appendOnEmpty(makeMemoryBackend()))

  it("writes the blocks to append as its first (LMDB), and they are there after a reopen", () =>
    Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const dir = yield* tempDir()
          const backend = openLmdbBackend({ path: dir, sync: false })
          appendOnEmpty(backend)
          yield* Effect.promise(async () => backend.close())
          const again = openLmdbBackend({ path: dir, sync: false })
          expect(again.head()?.latestVersion).toBe(13n)
          expect(again.stateGet(keyOf(2), 13n)?.version).toBe(12n)
          yield* Effect.promise(async () => again.close())
        })
      )
    ))
})
