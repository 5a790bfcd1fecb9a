import { Effect } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import type { LedgerService } from "../../src/ledger/Ledger.js"
import { keyOf, storeKinds } from "./fixtures.js"
import { commitAll, EVENT_STREAM, txnArb } from "./rewindBlocks.js"

/**
 * `LedgerRewind` on both stores: a history A, a mark, more blocks B, a rewind to the mark, then
 * blocks C must read exactly as a ledger that only ever committed A then C (every version's state
 * and metadata, blocks, transactions by version and hash, summaries, account sequences, events,
 * the accumulator). B's transactions are gone by hash unless C committed the same ones.
 */
const KEYS = 6
const SENDERS = 3

const blocksArb = (min: number) =>
  fc.array(fc.array(txnArb(KEYS, SENDERS, 4), { minLength: 1, maxLength: 4 }), { minLength: min, maxLength: 6 })

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
    const senders: unknown[] = []
    for (let s = 0; s < SENDERS; s++) {
      senders.push((yield* l.summariesBySender(addressFromNumber(0x100 + s), { limit: 1000 })).map((x) => x.version))
      senders.push((yield* l.accountTransactions(addressFromNumber(0x100 + s), 0n, 1000)).map((x) => x.version))
    }
    const events = (yield* l.eventsByKey({ address: EVENT_STREAM, creationNumber: 1n, start: 0n, limit: 1000 })).map(
      (e) => [e.version, e.event.sequenceNumber, e.event.data[0]]
    )
    return { info, versions, senders, events, mark: (({ head: _, ...m }) => m)(yield* l.rewind!.mark) }
  })

describe.each(storeKinds)("rewinding the $name store", (kind) => {
  it("reads as a ledger that never committed what was rewound", () =>
    fc.assert(
      fc.asyncProperty(blocksArb(1), blocksArb(1), blocksArb(0), (a, b, c) =>
        Effect.runPromise(
          Effect.scoped(
            Effect.gen(function* () {
              const rewound = (yield* kind.open()).handle.service
              const straight = (yield* kind.open()).handle.service
              const counters = new Map<string, bigint>()
              yield* commitAll(rewound, a, counters, 1)
              const mark = yield* rewound.rewind!.mark
              const saved = new Map(counters)
              yield* commitAll(rewound, b, counters, 2)
              const dropped = yield* rewound.transactionsFrom(mark.version + 1n, 1000)
              yield* rewound.rewind!.rewindTo(mark)
              expect(rewound.rewind!.rewinds()).toBe(1)
              yield* commitAll(rewound, c, saved, 3)
              const again = new Map<string, bigint>()
              yield* commitAll(straight, a, again, 1)
              yield* commitAll(straight, c, again, 3)
              expect(yield* fingerprint(rewound)).toEqual(yield* fingerprint(straight))
              for (const t of dropped) {
                const inStraight = yield* Effect.result(straight.transactionByHash(t.hash))
                const inRewound = yield* Effect.result(rewound.transactionByHash(t.hash))
                expect(inRewound._tag).toBe(inStraight._tag)
              }
              // Rewound past: a mark of the dropped history is refused, the ledger untouched.
              if (c.length > 0) {
                const before = yield* rewound.ledgerInfo
                const stale = yield* Effect.flip(
                  rewound.rewind!.rewindTo({
                    ...mark,
                    head: { ...(mark.head as object), latestVersion: before.ledgerVersion + 1n }
                  })
                )
                expect(stale._tag).toBe("VersionNotFound")
              }
            })
          )
        )
      ),
      { numRuns: kind.name === "lmdb" ? 30 : 100 }
    ))

  it("markAtHeight rebuilds the mark the ledger had at that block", () =>
    Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const l = (yield* kind.open()).handle.service
          const counters = new Map<string, bigint>()
          yield* commitAll(l, [[{ sender: 0, writes: [[1, 2]], event: true }]], counters, 1)
          const mark = yield* l.rewind!.mark
          yield* commitAll(
            l,
            [[{ sender: 1, writes: [[1, 3]], event: false }], [{ sender: undefined, writes: [], event: false }]],
            counters,
            2
          )
          const rebuilt = yield* l.rewind!.markAtHeight(mark.height)
          expect(rebuilt.head).toEqual(mark.head)
          yield* l.rewind!.rewindTo(rebuilt)
          expect((yield* l.ledgerInfo).ledgerVersion).toBe(mark.version)
        })
      )
    ))
})
