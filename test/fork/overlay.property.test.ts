/**
 * The fork's state is its source's state at V with the fork's writes on top: for any base (values,
 * with and without metadata, and absent keys) and any sequence of blocks of writes and deletes, a
 * fork over that base reads exactly what a full copy of the base with the same blocks applied reads,
 * at every version from V on — values and metadata. Deletions of base keys are tombstones: they
 * never fall through to the source (the copy has no source to fall through to).
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { emptyAccumulator } from "../../src/domain/MerkleAccumulator.js"
import { forkBackend } from "../../src/fork/forkBackend.js"
import { forkRewind } from "../../src/fork/forkRewind.js"
import { makeForkStateSource } from "../../src/fork/ForkStateSource.js"
import { ABSENT, memoryRemoteStateCache } from "../../src/fork/RemoteStateCache.js"
import type { LedgerHead } from "../../src/ledger/LedgerBackend.js"
import { makeLedgerService } from "../../src/ledger/makeLedgerService.js"
import { makeMemoryBackend } from "../../src/ledger/MemoryBackend.js"
import { openLmdbBackend } from "../../src/ledger/LmdbBackend.js"
import { checkpointTxn, keyOf, metadataOfValue, toCommit, type Write } from "../ledger/fixtures.js"

const KEYS = 12

/** The base: per key, a value (with the metadata `metadataOfValue` gives it) or absent. */
const base = fc.array(fc.option(fc.integer({ min: 0, max: 250 }), { nil: undefined }), {
  minLength: KEYS,
  maxLength: KEYS
})

const write: fc.Arbitrary<Write> = fc.tuple(
  fc.integer({ min: 0, max: KEYS - 1 }),
  fc.option(fc.integer({ min: 0, max: 250 }), { nil: undefined, freq: 3 })
)
/** Blocks of transactions, each a write set over the keys (undefined = a deletion). */
const blocks = fc.array(fc.array(fc.array(write, { maxLength: 6 }), { minLength: 1, maxLength: 3 }), {
  maxLength: 6
})

const run = <A>(e: Effect.Effect<A, unknown>) => Effect.runSync(e)

describe("a fork's state over its source", () => {
  it("reads as the same writes applied to a full copy of the base, at every version", () => {
    fc.assert(
      fc.property(base, blocks, fc.boolean(), (values, bs, withMetadata) => {
        // The full copy: version 0 writes the base (with metadata, as the source holds it).
        const copy = makeLedgerService(makeMemoryBackend())
        const baseWrites: Write[] = values.flatMap((v, k) => (v === undefined ? [] : [[k, v] as const]))
        run(
          copy.commitGenesis(
            { epoch: 1n, timestampUsec: 0n, transactions: [toCommit(checkpointTxn(0), baseWrites, [], true)] },
            4
          )
        )

        // The fork: the same base as the source's answers at V = 0, nothing local.
        const cache = memoryRemoteStateCache()
        for (let k = 0; k < KEYS; k++) {
          const v = values[k]
          cache.put(keyOf(k), v === undefined ? ABSENT : { data: new Uint8Array([v, 7]), metadata: metadataOfValue(v) })
        }
        const remote = makeForkStateSource(undefined, cache, 0n)
        const head: LedgerHead = {
          chainId: 4,
          latestVersion: 0n,
          latestHeight: 0n,
          epoch: 1n,
          timestampUsec: 0n,
          oldestVersion: 0n,
          oldestHeight: 0n,
          genesisHash: new Uint8Array(32),
          accumulator: emptyAccumulator
        }
        const fork = makeLedgerService(forkBackend(makeMemoryBackend(), remote, head))

        let n = 1
        for (const b of bs) {
          const transactions = b.map((writes) => toCommit(checkpointTxn(n++), writes, [], withMetadata))
          const a = run(copy.service.commitBlock({ epoch: 1n, timestampUsec: BigInt(n), transactions }))
          const f = run(fork.service.commitBlock({ epoch: 1n, timestampUsec: BigInt(n), transactions }))
          expect(f).toEqual(a)
        }
        const latest = run(copy.service.ledgerInfo).ledgerVersion
        expect(run(fork.service.ledgerInfo).ledgerVersion).toBe(latest)
        for (let v = 0n; v <= latest; v++) {
          const a = run(copy.service.stateAt(v))
          const f = run(fork.service.stateAt(v))
          for (let k = 0; k < KEYS; k++) {
            const key = keyOf(k)
            expect(f.get(key), `key ${k} at ${v}`).toEqual(a.get(key))
            expect(f.metadata?.(key), `metadata of key ${k} at ${v}`).toEqual(a.metadata?.(key))
            expect(f.getVersioned(key)?.value).toEqual(a.getVersioned(key)?.value)
          }
        }
      }),
      { numRuns: 300 }
    )
  })

  it("with the fork's own store in LMDB and resets to the fork point between blocks, reads as a copy reset to its base", () => {
    const step = fc.oneof(
      {
        weight: 4,
        arbitrary: fc
          .array(fc.array(write, { maxLength: 6 }), { minLength: 1, maxLength: 3 })
          .map((b) => ({ block: b }))
      },
      { weight: 1, arbitrary: fc.constant({ reset: true as const }) }
    )
    fc.assert(
      fc.property(base, fc.array(step, { maxLength: 8 }), (values, steps) => {
        const copy = makeLedgerService(makeMemoryBackend())
        const baseWrites: Write[] = values.flatMap((v, k) => (v === undefined ? [] : [[k, v] as const]))
        run(
          copy.commitGenesis(
            { epoch: 1n, timestampUsec: 0n, transactions: [toCommit(checkpointTxn(0), baseWrites, [], true)] },
            4
          )
        )
        const cache = memoryRemoteStateCache()
        for (let k = 0; k < KEYS; k++) {
          const v = values[k]
          cache.put(keyOf(k), v === undefined ? ABSENT : { data: new Uint8Array([v, 7]), metadata: metadataOfValue(v) })
        }
        const head: LedgerHead = {
          chainId: 4,
          latestVersion: 0n,
          latestHeight: 0n,
          epoch: 1n,
          timestampUsec: 0n,
          oldestVersion: 0n,
          oldestHeight: 0n,
          genesisHash: new Uint8Array(32),
          accumulator: emptyAccumulator
        }
        const dir = mkdtempSync(join(tmpdir(), "movenode-fork-overlay-"))
        const store = forkBackend(
          openLmdbBackend({ path: dir, sync: false }),
          makeForkStateSource(undefined, cache, 0n),
          head
        )
        const fork = makeLedgerService(store)
        const forkBack = forkRewind(fork.service.rewind!, head, store)
        const copyBack = copy.service.rewind!
        try {
          let n = 1
          for (const s of steps) {
            if ("reset" in s) {
              run(Effect.flatMap(forkBack.markAtHeight(0n), forkBack.rewindTo))
              run(Effect.flatMap(copyBack.markAtHeight(0n), copyBack.rewindTo))
            } else {
              const transactions = s.block.map((writes) => toCommit(checkpointTxn(n++), writes, [], true))
              expect(run(fork.service.commitBlock({ epoch: 1n, timestampUsec: BigInt(n), transactions }))).toEqual(
                run(copy.service.commitBlock({ epoch: 1n, timestampUsec: BigInt(n), transactions }))
              )
            }
            const latest = run(copy.service.ledgerInfo).ledgerVersion
            expect(run(fork.service.ledgerInfo).ledgerVersion).toBe(latest)
            const a = run(copy.service.stateAt(latest))
            const f = run(fork.service.stateAt(latest))
            for (let k = 0; k < KEYS; k++) {
              expect(f.get(keyOf(k)), `key ${k} at ${latest}`).toEqual(a.get(keyOf(k)))
              expect(f.metadata?.(keyOf(k)), `metadata of key ${k} at ${latest}`).toEqual(a.metadata?.(keyOf(k)))
            }
          }
        } finally {
          fork.close()
          rmSync(dir, { recursive: true, force: true })
        }
      }),
      { numRuns: 40 }
    )
  })
})
