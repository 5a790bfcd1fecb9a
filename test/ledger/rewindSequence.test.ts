import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import * as fc from "fast-check"
import { open } from "lmdb"
import { describe, expect, it } from "vitest"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import type { LedgerMark, LedgerService } from "../../src/ledger/Ledger.js"
import type { LedgerBackend } from "../../src/ledger/LedgerBackend.js"
import { openLmdbBackend } from "../../src/ledger/LmdbBackend.js"
import { makeMemoryBackend } from "../../src/ledger/MemoryBackend.js"
import { type LedgerHandle, makeLedgerService } from "../../src/ledger/makeLedgerService.js"
import { keyOf } from "./fixtures.js"
import { blocksToCommit, commitAll, EVENT_STREAM, type Txn, txnArb } from "./rewindBlocks.js"

/**
 * The LMDB store's rewinds are logical (src/ledger/LmdbBackend.ts, `truncateAfter`): the head moves
 * back at once and what the forgotten versions held is removed later, by the commits that write
 * those versions again and by garbage collection in slices. Property: any sequence of commits,
 * marks, rewinds to an earlier mark, garbage collection steps and restarts reads exactly as a
 * ledger that only ever committed the blocks that survived (every version's state and metadata,
 * transactions by version and by hash, blocks, summaries, account transactions, events, the
 * accumulator); once all garbage is collected, the store holds no entry of the forgotten versions.
 */
const KEYS = 5
const SENDERS = 3
type Op =
  | { readonly _tag: "commit"; readonly blocks: ReadonlyArray<ReadonlyArray<Txn>> }
  | { readonly _tag: "mark" }
  | { readonly _tag: "rewind"; readonly pick: number }
  /** A rewind and blocks written in the same step (a loaded chain), as `replaceAfter`. */
  | { readonly _tag: "replace"; readonly pick: number; readonly blocks: ReadonlyArray<ReadonlyArray<Txn>> }
  | { readonly _tag: "collect"; readonly budget: number }
  | { readonly _tag: "reopen" }

const blocksArb = fc.array(fc.array(txnArb(KEYS, SENDERS, 3), { minLength: 1, maxLength: 3 }), {
  minLength: 1,
  maxLength: 3
})
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ _tag: fc.constant("commit" as const), blocks: blocksArb }) },
  { weight: 1, arbitrary: fc.record({ _tag: fc.constant("replace" as const), pick: fc.nat(), blocks: blocksArb }) },
  { weight: 2, arbitrary: fc.record({ _tag: fc.constant("mark" as const) }) },
  { weight: 2, arbitrary: fc.record({ _tag: fc.constant("rewind" as const), pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({ _tag: fc.constant("collect" as const), budget: fc.integer({ min: 1, max: 6 }) })
  },
  { weight: 1, arbitrary: fc.record({ _tag: fc.constant("reopen" as const) }) }
)

/** Everything the service reads, at every version, as plain data. */
const fingerprint = (l: LedgerService) =>
  Effect.gen(function* () {
    const info = yield* l.ledgerInfo
    const versions: unknown[] = []
    for (let v = 0n; v <= info.ledgerVersion; v++) {
      const state = yield* l.stateAt(v)
      const t = yield* l.transactionByVersion(v)
      const byHash = yield* l.transactionByHash(t.hash)
      versions.push({
        state: Array.from({ length: KEYS }, (_, k) => [state.getVersioned(keyOf(k)), state.metadata?.(keyOf(k))]),
        hash: Buffer.from(t.hash).toString("hex"),
        root: Buffer.from(t.accumulatorRootHash).toString("hex"),
        byHash: byHash.version,
        block: yield* l.blockByVersion(v)
      })
    }
    const heights: unknown[] = []
    for (let h = 0n; h <= info.blockHeight; h++) heights.push(yield* l.blockByHeight(h))
    const senders: unknown[] = []
    for (let s = 0; s < SENDERS; s++) {
      senders.push((yield* l.summariesBySender(addressFromNumber(0x100 + s), { limit: 1000 })).map((x) => x.version))
      senders.push((yield* l.accountTransactions(addressFromNumber(0x100 + s), 0n, 1000)).map((x) => x.version))
      // Small pages: entries of forgotten versions must not take a page's places.
      senders.push((yield* l.accountTransactions(addressFromNumber(0x100 + s), 0n, 1)).map((x) => x.version))
    }
    const events = (yield* l.eventsByKey({ address: EVENT_STREAM, creationNumber: 1n, start: 0n, limit: 1000 })).map(
      (e) => [e.version, e.event.sequenceNumber, e.event.data[0]]
    )
    const newest = (yield* l.eventsByKey({ address: EVENT_STREAM, creationNumber: 1n, limit: 2 })).map((e) => e.version)
    const gone = yield* Effect.result(l.blockByHeight(info.blockHeight + 1n))
    return {
      info,
      versions,
      heights,
      senders,
      events,
      newest,
      gone: gone._tag,
      mark: (({ head: _, ...m }) => m)(yield* l.rewind!.mark)
    }
  })

/** Entries per LMDB table, read with a second handle on the store's files. */
const tableSizes = (path: string) => {
  const root = open({ path, keyEncoding: "binary", encoding: "binary", maxDbs: 16, noSubdir: false, readOnly: true })
  try {
    const count = (name: string) => root.openDB({ name, keyEncoding: "binary", encoding: "binary" }).getCount()
    const meta = root.openDB({ name: "meta", keyEncoding: "binary", encoding: "binary" })
    return {
      txns: count("txns"),
      blocks: count("blocks"),
      blockEnds: count("block_ends"),
      hashes: count("txn_hashes"),
      // A sorted-duplicates table: its entry count is one per value (one per write).
      stateIndex: (
        root.openDB({ name: "state_index", keyEncoding: "binary", encoding: "binary", dupSort: true }).getStats() as {
          entryCount: number
        }
      ).entryCount,
      garbage: meta.getBinary(Buffer.from("garbage_top")) !== undefined
    }
  } finally {
    void root.close()
  }
}

const kinds = [
  { name: "memory" as const, open: (_path: string): LedgerBackend => makeMemoryBackend() },
  { name: "lmdb" as const, open: (path: string): LedgerBackend => openLmdbBackend({ path, sync: false }) },
  // fsync'd, as a chain's store: its blocks are written ahead (`LmdbBackend.commitMany`), except the
  // commits that first clear a rewind's garbage.
  { name: "fsync'd lmdb" as const, open: (path: string): LedgerBackend => openLmdbBackend({ path, sync: true }) }
]

describe.each(kinds)("sequences of rewinds on the $name store", (kind) => {
  it("read as the ledger that only committed what survived, and leave nothing behind once collected", () =>
    fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 14 }), fc.boolean(), (ops, background) =>
        Effect.runPromise(
          Effect.gen(function* () {
            const dir = mkdtempSync(join(tmpdir(), "movenode-rewind-seq-"))
            const opened: LedgerHandle[] = []
            const reopen = () => {
              const h = makeLedgerService(kind.open(dir), { collectInBackground: background })
              opened.push(h)
              return h
            }
            try {
              let handle = reopen()
              let l = handle.service
              const counters = new Map<string, bigint>()
              // What survived: the commits in order, each with its tag (the model replays them).
              let live: Array<{ readonly blocks: Op & { _tag: "commit" }; readonly tag: number }> = []
              const marks: Array<{
                readonly mark: LedgerMark
                readonly live: number
                readonly counters: Map<string, bigint>
              }> = []
              yield* commitAll(l, [[{ sender: undefined, writes: [[0, 1]], event: false }]], counters, 0)
              live.push({
                blocks: { _tag: "commit", blocks: [[{ sender: undefined, writes: [[0, 1]], event: false }]] },
                tag: 0
              })
              for (const [i, op] of ops.entries()) {
                if (op._tag === "commit") {
                  yield* commitAll(l, op.blocks, counters, i + 1)
                  live.push({ blocks: op, tag: i + 1 })
                } else if (op._tag === "mark") {
                  marks.push({ mark: yield* l.rewind!.mark, live: live.length, counters: new Map(counters) })
                } else if (op._tag === "rewind") {
                  if (marks.length === 0) continue
                  const at = op.pick % marks.length
                  const m = marks[at]!
                  marks.length = at // later marks describe a future that no longer happens
                  yield* l.rewind!.rewindTo(m.mark)
                  live = live.slice(0, m.live)
                  counters.clear()
                  for (const [k, v] of m.counters) counters.set(k, v)
                } else if (op._tag === "replace") {
                  if (marks.length === 0) continue
                  const at = op.pick % marks.length
                  const m = marks[at]!
                  marks.length = at
                  counters.clear()
                  for (const [k, v] of m.counters) counters.set(k, v)
                  yield* l.rewind!.replaceAfter(
                    m.mark,
                    blocksToCommit(m.mark.timestampUsec, op.blocks, counters, i + 1)
                  )
                  live = [...live.slice(0, m.live), { blocks: { _tag: "commit", blocks: op.blocks }, tag: i + 1 }]
                } else if (op._tag === "collect") {
                  yield* l.rewind!.collectGarbage(op.budget)
                } else if (kind.name === "lmdb") {
                  // A restart with garbage left: the marker is read back from the store.
                  handle.close()
                  handle = reopen()
                  l = handle.service
                }
              }
              const straightHandle = makeLedgerService(makeMemoryBackend())
              const straight = straightHandle.service
              const again = new Map<string, bigint>()
              for (const c of live) yield* commitAll(straight, c.blocks.blocks, again, c.tag)
              const expected = yield* fingerprint(straight)
              expect(yield* fingerprint(l)).toEqual(expected)
              // Everything collected: the same reads, and no entry of a forgotten version left.
              while ((yield* l.rewind!.collectGarbage(1000)) > 0) {}
              expect(yield* fingerprint(l)).toEqual(expected)
              if (kind.name === "lmdb") {
                const info = yield* l.ledgerInfo
                const sizes = tableSizes(dir)
                let writes = 0
                for (let v = 0n; v <= info.ledgerVersion; v++)
                  writes += (yield* l.transactionByVersion(v)).writeSet.entries.length
                expect(sizes).toEqual({
                  txns: Number(info.ledgerVersion) + 1,
                  blocks: Number(info.blockHeight) + 1,
                  blockEnds: Number(info.blockHeight) + 1,
                  hashes: new Set((expected.versions as Array<{ hash: string }>).map((v) => v.hash)).size,
                  stateIndex: writes,
                  garbage: false
                })
              }
            } finally {
              for (const h of opened) h.close()
              rmSync(dir, { recursive: true, force: true })
            }
          })
        )
      ),
      { numRuns: kind.name === "memory" ? 100 : 60 }
    ))
})

describe("the LMDB store's garbage", () => {
  it("keeps the index entries the live chain wrote again: a forgotten transaction committed again at a lower version is found by hash after the collection", () =>
    Effect.runPromise(
      Effect.gen(function* () {
        const dir = mkdtempSync(join(tmpdir(), "movenode-rewind-seq-"))
        const handle = makeLedgerService(openLmdbBackend({ path: dir, sync: false }), { collectInBackground: false })
        try {
          const l = handle.service
          const cp = (n: number): Txn => ({ sender: undefined, writes: [[n % KEYS, n]], event: false })
          const sent: Txn = { sender: 0, writes: [[1, 9]], event: true }
          yield* commitAll(l, [[cp(1)]], new Map(), 0)
          const mark = yield* l.rewind!.mark
          // Forgotten: the user transaction two versions above the mark.
          yield* commitAll(l, [[cp(2), cp(3), sent]], new Map(), 1)
          const forgotten = yield* l.transactionByVersion(mark.version + 3n)
          yield* l.rewind!.rewindTo(mark)
          // Live: the same transaction (same hash) one version above the mark, garbage left above it.
          yield* commitAll(l, [[sent]], new Map(), 2)
          const live = yield* l.transactionByHash(forgotten.hash)
          expect(live.version).toBe(mark.version + 1n)
          while ((yield* l.rewind!.collectGarbage(1)) > 0) {}
          expect((yield* l.transactionByHash(forgotten.hash)).version).toBe(mark.version + 1n)
          expect((yield* l.accountTransactions(addressFromNumber(0x100), 0n, 10)).map((t) => t.version)).toEqual([
            mark.version + 1n
          ])
          expect(
            (yield* l.eventsByKey({ address: EVENT_STREAM, creationNumber: 1n, start: 0n, limit: 10 })).map(
              (e) => e.version
            )
          ).toEqual([mark.version + 1n])
        } finally {
          handle.close()
          rmSync(dir, { recursive: true, force: true })
        }
      })
    ))
})
