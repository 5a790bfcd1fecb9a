/**
 * The LMDB store's reuse of large latest values (at least 4 KiB: the gas schedule every
 * transaction reads): the same bytes at the same version come back as the same array, a new
 * version as new bytes, history reads are unaffected, and more such values than the cache holds
 * still read correctly.
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { WriteSet } from "../../src/domain/WriteSet.js"
import type { TransactionToCommit } from "../../src/ledger/Ledger.js"
import { checkpointTxn, keyOf, storeKinds } from "./fixtures.js"

const lmdb = storeKinds.find((k) => k.name === "lmdb")!

const big = (n: number, fill: number): Uint8Array => new Uint8Array(n).fill(fill)

const writing = (version: number, writes: ReadonlyArray<readonly [number, Uint8Array]>): TransactionToCommit => {
  const writeSet: WriteSet = {
    entries: writes
      .map(([k, data]) => ({
        key: { _tag: "TableItem" as const, handle: new Uint8Array(32), key: new Uint8Array([k & 0xff, k >> 8]) },
        keyBytes: keyOf(k),
        op: { _tag: "Modification" as const, data }
      }))
      .sort((a, b) => Buffer.compare(a.keyBytes, b.keyBytes))
  }
  return {
    transaction: checkpointTxn(version),
    writeSet,
    events: [],
    outcome: { gasUsed: 0n, status: { _tag: "Success" }, vmStatus: "Executed successfully" }
  }
}

describe("the LMDB store's large values", () => {
  it("are handed out again while their version stands, and re-read when it changes", () =>
    Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const { handle, backend } = yield* lmdb.open()
          const l = handle.service
          const commit = (v: number, writes: ReadonlyArray<readonly [number, Uint8Array]>) =>
            l.commitBlock({ epoch: 1n, timestampUsec: BigInt(v + 1), transactions: [writing(v, writes)] })
          yield* commit(0, [
            [1, big(5000, 1)],
            [2, big(4095, 2)]
          ])
          const first = backend.stateGet(keyOf(1), 0n)!.value!
          expect(first).toEqual(big(5000, 1))
          expect(backend.stateGet(keyOf(1), 0n)!.value).toBe(first)
          // Below the threshold: a fresh copy each time.
          const small = backend.stateGet(keyOf(2), 0n)!.value!
          expect(small).toEqual(big(4095, 2))
          expect(backend.stateGet(keyOf(2), 0n)!.value).not.toBe(small)
          yield* commit(1, [[1, big(6000, 3)]])
          const second = backend.stateGet(keyOf(1), 1n)!
          expect(second).toEqual({ value: big(6000, 3), version: 1n })
          expect(backend.stateGet(keyOf(1), 1n)!.value).toBe(second.value)
          // The older version still comes from history.
          expect(backend.stateGet(keyOf(1), 0n)).toEqual({ value: big(5000, 1), version: 0n })
          expect(first).toEqual(big(5000, 1))
          // More large values than the cache keeps (8 MiB): each still reads as written.
          const many = Array.from({ length: 20 }, (_, i) => [100 + i, big(512 * 1024, i)] as const)
          yield* commit(2, many)
          for (let round = 0; round < 2; round++)
            for (const [k, value] of many) {
              const got = backend.stateGet(keyOf(k), 2n)!
              expect(got.version).toBe(2n)
              expect(Buffer.compare(Buffer.from(got.value!), value)).toBe(0)
            }
          expect(backend.stateGet(keyOf(1), 2n)).toEqual({ value: big(6000, 3), version: 1n })
        })
      )
    ))
})
