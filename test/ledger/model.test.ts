import { Effect } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import type { BlockToCommit } from "../../src/ledger/Ledger.js"
import {
  checkpointTxn,
  keyOf,
  metadataOfValue,
  storeKinds,
  toCommit,
  userTxn,
  stateValue,
  type Write
} from "./fixtures.js"

/**
 * Both stores against a naive model: random blocks of random writes and deletions, user and
 * non-user transactions, with and without a pruning window; every read the service offers is
 * compared with the model at every version.
 */
const KEYS = 6
const SENDERS = 3

const txnArb = fc.record({
  sender: fc.option(fc.integer({ min: 0, max: SENDERS - 1 }), {
    nil: undefined
  }),
  writes: fc.array(
    fc.tuple(fc.integer({ min: 0, max: KEYS - 1 }), fc.option(fc.integer({ min: 0, max: 255 }), { nil: undefined })),
    {
      maxLength: 4
    }
  )
})
const scenarioArb = fc.record({
  window: fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }),
  blocks: fc.array(fc.array(txnArb, { minLength: 1, maxLength: 4 }), {
    minLength: 1,
    maxLength: 12
  })
})

interface ModelTxn {
  readonly sender: number | undefined
  /** Last write per key wins within one transaction, as in a write set. */
  readonly writes: Map<number, number | undefined>
}

describe.each(storeKinds)("the $name store agrees with a model", (kind) => {
  it("for random histories", () =>
    fc.assert(
      fc.asyncProperty(scenarioArb, ({ window, blocks }) =>
        Effect.runPromise(
          Effect.scoped(
            Effect.gen(function* () {
              const { handle, backend } = yield* kind.open({
                pruneWindow: window,
                pruneBatch: 3
              })
              const l = handle.service
              const txns: ModelTxn[] = []
              const blockRanges: Array<[number, number]> = []
              const seq = new Map<number, bigint>()
              for (const [h, b] of blocks.entries()) {
                const first = txns.length
                const toCommitList: BlockToCommit["transactions"] = b.map((t, i) => {
                  const writes = new Map<number, number | undefined>(t.writes)
                  txns.push({ sender: t.sender, writes })
                  const s = t.sender
                  const transaction =
                    s === undefined
                      ? checkpointTxn(first + i)
                      : userTxn(0x100 + s, seq.set(s, (seq.get(s) ?? -1n) + 1n).get(s)!)
                  return toCommit(transaction, [...writes] as Write[], [], true)
                })
                yield* l.commitBlock({
                  epoch: 1n,
                  timestampUsec: BigInt(h),
                  transactions: toCommitList
                })
                blockRanges.push([first, txns.length - 1])
              }
              const latest = txns.length - 1
              // Expected window: first block fully inside the last `window` versions (latest kept).
              let oldestHeight = 0
              if (window !== undefined) {
                const minViable = latest + 1 - window
                oldestHeight = blockRanges.findIndex(([f]) => f >= minViable)
                if (oldestHeight < 0) oldestHeight = blockRanges.length - 1
              }
              const oldest = blockRanges[oldestHeight]![0]
              const info = yield* l.ledgerInfo
              expect([info.ledgerVersion, info.oldestLedgerVersion, info.oldestBlockHeight, info.blockHeight]).toEqual(
                [latest, oldest, oldestHeight, blockRanges.length - 1].map(BigInt)
              )
              for (let v = 0; v <= latest; v++) {
                if (v < oldest) {
                  expect((yield* Effect.flip(l.stateAt(BigInt(v))))._tag).toBe("VersionPruned")
                  continue
                }
                const state = yield* l.stateAt(BigInt(v))
                for (let k = 0; k < KEYS; k++) {
                  let expected: { value: number; version: number } | undefined
                  for (let u = 0; u <= v; u++)
                    if (txns[u]!.writes.has(k)) {
                      const w = txns[u]!.writes.get(k)
                      expected = w === undefined ? undefined : { value: w, version: u }
                    }
                  // The slot metadata written with the value (none for deletions and legacy values).
                  expect(state.metadata?.(keyOf(k))).toEqual(
                    expected === undefined ? undefined : metadataOfValue(expected.value)
                  )
                  expect(state.getVersioned(keyOf(k))).toEqual(
                    expected === undefined
                      ? undefined
                      : {
                          value: stateValue(expected.value),
                          version: BigInt(expected.version)
                        }
                  )
                }
                expect((yield* l.blockByVersion(BigInt(v))).height).toBe(
                  BigInt(blockRanges.findIndex(([f, e]) => f <= v && v <= e))
                )
              }
              // Once the pruner has caught up, nothing below the window is left in the store.
              while (handle.pruneStep(5) > 0) {}
              for (let u = 0; u < oldest; u++) {
                expect(backend.transaction(BigInt(u))).toBeUndefined()
                for (let k = 0; k < KEYS; k++) {
                  const found = backend.stateGet(keyOf(k), BigInt(u))
                  if (found !== undefined)
                    expect(found.version).toBe(backend.stateGet(keyOf(k), BigInt(oldest))?.version)
                }
              }
              for (let h = 0; h < oldestHeight; h++) expect(backend.block(BigInt(h))).toBeUndefined()
              for (let s = 0; s < SENDERS; s++) {
                const raw = backend.summariesForward(addressFromNumber(0x100 + s), 0n, BigInt(latest), 1000)
                expect(raw.every((x) => x.version >= BigInt(oldest))).toBe(true)
              }
              for (let s = 0; s < SENDERS; s++) {
                const mine = txns.flatMap((t, v) => (t.sender === s && v >= oldest ? [BigInt(v)] : []))
                const got = yield* l.summariesBySender(addressFromNumber(0x100 + s), { limit: 1000 })
                expect(got.map((x) => x.version)).toEqual(mine)
                const newest2 = yield* l.summariesBySender(addressFromNumber(0x100 + s), { limit: 2 })
                expect(newest2.map((x) => x.version)).toEqual(mine.slice(-2))
                const fromOldest = yield* l.summariesBySender(addressFromNumber(0x100 + s), {
                  startVersion: BigInt(oldest),
                  limit: 2
                })
                expect(fromOldest.map((x) => x.version)).toEqual(mine.slice(0, 2))
              }
            })
          )
        )
      ),
      { numRuns: kind.name === "lmdb" ? 40 : 150 }
    ))
})
