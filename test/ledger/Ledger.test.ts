import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { Bcs } from "../../src/bcs/index.js"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { stateKeyCodec } from "../../src/domain/StateKeyCodec.js"
import type { BlockToCommit, LedgerService } from "../../src/ledger/Ledger.js"
import { checkpointTxn, eventOf, keyOf, storeKinds, toCommit, userTxn, stateValue } from "./fixtures.js"

const run = <A, E>(effect: Effect.Effect<A, E, any>): Promise<A> =>
  Effect.runPromise(Effect.scoped(effect) as Effect.Effect<A, E>)

const tagOf = <A, E extends { _tag: string }>(effect: Effect.Effect<A, E>) =>
  Effect.map(Effect.flip(effect), (e) => e._tag)

const block = (timestampUsec: bigint, ...transactions: BlockToCommit["transactions"]): BlockToCommit => ({
  epoch: 1n,
  timestampUsec,
  transactions
})

describe.each(storeKinds)("Ledger over the $name store", (kind) => {
  it("an empty ledger has no ledger info; the first block is version 0, height 0", () =>
    run(
      Effect.gen(function* () {
        const { handle } = yield* kind.open({ chainId: 9 })
        const l = handle.service
        expect(yield* tagOf(l.ledgerInfo)).toBe("StorageError")
        const b = yield* l.commitBlock(block(5n, toCommit(checkpointTxn(1)), toCommit(checkpointTxn(2))))
        expect(b).toEqual({
          height: 0n,
          firstVersion: 0n,
          lastVersion: 1n,
          timestampUsec: 5n,
          epoch: 1n
        })
        expect(yield* l.ledgerInfo).toEqual({
          chainId: 9,
          epoch: 1n,
          ledgerVersion: 1n,
          oldestLedgerVersion: 0n,
          ledgerTimestampUsec: 5n,
          blockHeight: 0n,
          oldestBlockHeight: 0n
        })
        expect(yield* tagOf(l.commitBlock(block(6n)))).toBe("StorageError")
      })
    ))

  it("reads the state at every version, deletions included", () =>
    run(
      Effect.gen(function* () {
        const { handle } = yield* kind.open()
        const l = handle.service
        // key 1: 10 @0, 20 @2, deleted @4, 30 @6; key 2: 5 @1 only.
        yield* l.commitBlock(block(1n, toCommit(checkpointTxn(0), [[1, 10]]), toCommit(checkpointTxn(1), [[2, 5]])))
        yield* l.commitBlock(block(2n, toCommit(checkpointTxn(2), [[1, 20]]), toCommit(checkpointTxn(3))))
        yield* l.commitBlock(block(3n, toCommit(checkpointTxn(4), [[1, undefined]])))
        yield* l.commitBlock(block(4n, toCommit(checkpointTxn(5)), toCommit(checkpointTxn(6), [[1, 30]])))
        const expected = [10, 10, 20, 20, undefined, undefined, 30]
        for (let v = 0; v < expected.length; v++) {
          const s = yield* l.stateAt(BigInt(v))
          expect(s.version).toBe(BigInt(v))
          const e = expected[v]
          expect(s.get(keyOf(1))).toEqual(e === undefined ? undefined : stateValue(e))
          expect(s.get(keyOf(2))).toEqual(v >= 1 ? stateValue(5) : undefined)
          expect(s.get(keyOf(3))).toBeUndefined()
        }
        const latest = yield* l.stateAt(6n)
        expect(latest.getVersioned(keyOf(1))).toEqual({
          value: stateValue(30),
          version: 6n
        })
        expect(latest.getVersioned(keyOf(2))).toEqual({
          value: stateValue(5),
          version: 1n
        })
        expect((yield* l.stateAt(3n)).getVersioned(keyOf(1))).toEqual({
          value: stateValue(20),
          version: 2n
        })
        expect((yield* l.stateAt(5n)).getVersioned(keyOf(1))).toBeUndefined()
        expect(yield* tagOf(l.stateAt(7n))).toBe("VersionNotFound")
      })
    ))

  it("hands out one reader per version until a rewind makes the version name other state", () =>
    run(
      Effect.gen(function* () {
        const { handle } = yield* kind.open()
        const l = handle.service
        yield* l.commitBlock(block(1n, toCommit(checkpointTxn(0), [[1, 10]]), toCommit(checkpointTxn(1))))
        const first = yield* l.stateAt(1n)
        expect(yield* l.stateAt(1n)).toBe(first)
        yield* l.commitBlock(block(2n, toCommit(checkpointTxn(2), [[1, 20]])))
        const second = yield* l.stateAt(2n)
        expect(second).not.toBe(first)
        // A reader kept from before still reads its own version.
        expect(first.get(keyOf(1))).toEqual(stateValue(10))
        expect(second.get(keyOf(1))).toEqual(stateValue(20))
        const mark = yield* l.rewind!.mark
        yield* l.commitBlock(block(3n, toCommit(checkpointTxn(3), [[1, 30]])))
        const dropped = yield* l.stateAt(3n)
        expect(dropped.get(keyOf(1))).toEqual(stateValue(30))
        yield* l.rewind!.rewindTo(mark)
        yield* l.commitBlock(block(3n, toCommit(checkpointTxn(4), [[1, 40]])))
        // Version 3 again, but other state: a new reader, of the new generation.
        const again = yield* l.stateAt(3n)
        expect(again).not.toBe(dropped)
        expect(again.generation).not.toBe(dropped.generation)
        expect(again.get(keyOf(1))).toEqual(stateValue(40))
      })
    ))

  it("stores state keys longer than LMDB's key limit", () =>
    run(
      Effect.gen(function* () {
        const { handle } = yield* kind.open()
        const l = handle.service
        const longKey = (fill: number) => {
          const key = {
            _tag: "TableItem" as const,
            handle: addressFromNumber(0xabc),
            key: new Uint8Array(3000).fill(fill)
          }
          return { key, keyBytes: Bcs.encode(stateKeyCodec, key) }
        }
        const [a, b] = [longKey(1), longKey(2)]
        const entry = (k: typeof a, data: number) => ({
          ...k,
          op: { _tag: "Modification" as const, data: stateValue(data) }
        })
        const commit = (n: number, entries: ReturnType<typeof entry>[]) =>
          l.commitBlock(block(BigInt(n), { ...toCommit(checkpointTxn(n)), writeSet: { entries } }))
        yield* commit(0, [entry(a, 1), entry(b, 2)])
        yield* commit(1, [entry(a, 3)])
        expect((yield* l.stateAt(0n)).get(a.keyBytes)).toEqual(stateValue(1))
        expect((yield* l.stateAt(1n)).get(a.keyBytes)).toEqual(stateValue(3))
        expect((yield* l.stateAt(1n)).getVersioned(b.keyBytes)).toEqual({ value: stateValue(2), version: 0n })
      })
    ))

  it("serves blocks by height and by version, and the ledger info of the latest block", () =>
    run(
      Effect.gen(function* () {
        const { handle } = yield* kind.open()
        const l = handle.service
        const sizes = [1, 3, 2, 1, 4]
        let v = 0
        for (let h = 0; h < sizes.length; h++) {
          const txns = Array.from({ length: sizes[h]! }, () => toCommit(checkpointTxn(v++)))
          yield* l.commitBlock({
            epoch: BigInt(h >> 1),
            timestampUsec: BigInt(1000 * h),
            transactions: txns
          })
        }
        let first = 0n
        for (let h = 0; h < sizes.length; h++) {
          const b = yield* l.blockByHeight(BigInt(h))
          const last = first + BigInt(sizes[h]!) - 1n
          expect(b).toEqual({
            height: BigInt(h),
            firstVersion: first,
            lastVersion: last,
            timestampUsec: BigInt(1000 * h),
            epoch: BigInt(h >> 1)
          })
          for (let x = first; x <= last; x++) expect(yield* l.blockByVersion(x)).toEqual(b)
          first = last + 1n
        }
        expect(yield* tagOf(l.blockByHeight(5n))).toBe("BlockNotFound")
        expect(yield* tagOf(l.blockByVersion(11n))).toBe("VersionNotFound")
        const info = yield* l.ledgerInfo
        expect([info.ledgerVersion, info.blockHeight, info.epoch, info.ledgerTimestampUsec]).toEqual([
          10n,
          4n,
          2n,
          4000n
        ])
      })
    ))

  it("stores transactions with their outputs, by version and by hash", () =>
    run(
      Effect.gen(function* () {
        const { handle } = yield* kind.open()
        const l = handle.service
        const t0 = toCommit(checkpointTxn(1), [[1, 1]], [eventOf(1)])
        const t1 = {
          ...toCommit(
            userTxn(0xa, 3n),
            [
              [2, 2],
              [3, undefined]
            ],
            [eventOf(2), eventOf(3)]
          ),
          outcome: {
            gasUsed: 42n,
            status: {
              _tag: "MoveAbort" as const,
              location: { _tag: "Module" as const, module: { address: addressFromNumber(1), name: "m" } },
              code: 3n,
              info: undefined
            },
            vmStatus: "Move abort in 0x1::m: 0x3"
          }
        }
        yield* l.commitBlock(block(1n, t0, t1))
        for (const [version, expected] of [
          [0n, t0],
          [1n, t1]
        ] as const) {
          const got = yield* l.transactionByVersion(version)
          expect(got.version).toBe(version)
          expect(got.blockHeight).toBe(0n)
          expect(got.hash.length).toBe(32)
          expect(got.transaction).toEqual(expected.transaction)
          expect(got.writeSet.entries.map((e) => [Buffer.from(e.keyBytes).toString("hex"), e.op])).toEqual(
            expected.writeSet.entries.map((e) => [Buffer.from(e.keyBytes).toString("hex"), e.op])
          )
          expect(got.events).toEqual(expected.events)
          expect(got.outcome).toEqual(expected.outcome)
          const byHash = yield* l.transactionByHash(got.hash)
          expect(byHash.version).toBe(version)
        }
        const h0 = (yield* l.transactionByVersion(0n)).hash
        const h1 = (yield* l.transactionByVersion(1n)).hash
        expect(Buffer.from(h0).equals(Buffer.from(h1))).toBe(false)
        expect(yield* tagOf(l.transactionByHash(new Uint8Array(32)))).toBe("TransactionNotFound")
        expect(yield* tagOf(l.transactionByVersion(2n))).toBe("VersionNotFound")
      })
    ))

  describe("summaries by sender", () => {
    /** Sender 0xa sends at versions 1,3,5,...,19 (seq 0..9); 0xb in between; 0xc orderless at 20, 21. */
    const setup = (l: LedgerService) =>
      Effect.gen(function* () {
        let seqA = 0n
        let seqB = 0n
        for (let h = 0; h < 10; h++)
          yield* l.commitBlock(
            block(BigInt(h), toCommit(h % 2 ? userTxn(0xb, seqB++) : checkpointTxn(h)), toCommit(userTxn(0xa, seqA++)))
          )
        yield* l.commitBlock(block(11n, toCommit(userTxn(0xc, 0n, 42n)), toCommit(userTxn(0xc, 0n, 43n))))
      })
    const versions = (xs: ReadonlyArray<{ version: bigint }>) => xs.map((x) => Number(x.version))
    const a = addressFromNumber(0xa)

    it("pages per the contract", () =>
      run(
        Effect.gen(function* () {
          const { handle } = yield* kind.open()
          const l = handle.service
          yield* setup(l)
          const q = (startVersion?: bigint, endVersion?: bigint, limit = 100) =>
            Effect.map(l.summariesBySender(a, { startVersion, endVersion, limit }), versions)
          expect(yield* q()).toEqual([1, 3, 5, 7, 9, 11, 13, 15, 17, 19])
          expect(yield* q(undefined, undefined, 3)).toEqual([15, 17, 19])
          expect(yield* q(5n, undefined, 3)).toEqual([5, 7, 9])
          expect(yield* q(4n, undefined, 2)).toEqual([5, 7])
          expect(yield* q(undefined, 9n, 3)).toEqual([5, 7, 9])
          expect(yield* q(undefined, 10n, 2)).toEqual([7, 9])
          expect(yield* q(3n, 9n)).toEqual([3, 5, 7, 9])
          expect(yield* q(3n, 9n, 2)).toEqual([3, 5])
          expect(yield* q(0n, 0n)).toEqual([])
          expect(yield* q(1n, 1n)).toEqual([1])
          expect(yield* q(10n, 4n)).toEqual([])
          expect(yield* q(undefined, undefined, 0)).toEqual([])
          expect(yield* q(1000n)).toEqual([])
          expect(yield* q(undefined, 1000n, 2)).toEqual([17, 19])
          expect(yield* q(17n, 1000n)).toEqual([17, 19])
          expect(
            yield* l.summariesBySender(addressFromNumber(0xdead), {
              limit: 10
            })
          ).toEqual([])
          const all = yield* l.summariesBySender(a, { limit: 100 })
          expect(all.map((s) => s.replayProtector)).toEqual(
            Array.from({ length: 10 }, (_, i) => ({
              _tag: "SequenceNumber",
              sequenceNumber: BigInt(i)
            }))
          )
          for (const s of all) expect((yield* l.transactionByVersion(s.version)).hash).toEqual(s.hash)
          const c = yield* l.summariesBySender(addressFromNumber(0xc), {
            limit: 10
          })
          expect(c.map((s) => [Number(s.version), s.replayProtector])).toEqual([
            [20, { _tag: "Nonce", nonce: 42n }],
            [21, { _tag: "Nonce", nonce: 43n }]
          ])
          expect(Buffer.from(c[0]!.sender).equals(Buffer.from(addressFromNumber(0xc)))).toBe(true)
        })
      ))
  })

  describe("pruning", () => {
    it("keeps a block-aligned window, fails reads below it, and deletes what is pruned", () =>
      run(
        Effect.gen(function* () {
          const { handle, backend } = yield* kind.open({
            pruneWindow: 5n,
            pruneBatch: 1_000
          })
          const l = handle.service
          // Blocks of 2 transactions: block h = versions 2h, 2h+1; key 1 rewritten every block, key 2 only at 0.
          for (let h = 0; h < 10; h++) {
            const txA = toCommit(
              userTxn(0xa, BigInt(h)),
              h === 0
                ? [
                    [1, h],
                    [2, 99]
                  ]
                : [[1, h]]
            )
            yield* l.commitBlock(block(BigInt(h), txA, toCommit(checkpointTxn(h))))
            const info = yield* l.ledgerInfo
            // Window [latest-4, latest]; the first block starting at or after latest-4.
            const minViable = Math.max(0, 2 * h + 1 - 4)
            const oldestHeight = Math.ceil(minViable / 2)
            expect([info.oldestLedgerVersion, info.oldestBlockHeight]).toEqual([
              BigInt(2 * oldestHeight),
              BigInt(oldestHeight)
            ])
          }
          // latest version 19, oldest 16 (block 8).
          const info = yield* l.ledgerInfo
          expect(info.oldestLedgerVersion).toBe(16n)
          expect(yield* tagOf(l.stateAt(15n))).toBe("VersionPruned")
          expect(yield* tagOf(l.transactionByVersion(3n))).toBe("VersionPruned")
          expect(yield* tagOf(l.blockByHeight(7n))).toBe("BlockPruned")
          expect(yield* tagOf(l.blockByVersion(15n))).toBe("VersionPruned")
          expect(
            yield* tagOf(
              l.summariesBySender(addressFromNumber(0xa), {
                startVersion: 15n,
                limit: 10
              })
            )
          ).toBe("VersionPruned")
          expect(
            yield* tagOf(
              l.summariesBySender(addressFromNumber(0xa), {
                endVersion: 15n,
                limit: 10
              })
            )
          ).toBe("VersionPruned")
          expect(versionsOf(yield* l.summariesBySender(addressFromNumber(0xa), { limit: 10 }))).toEqual([16, 18])
          expect(
            versionsOf(
              yield* l.summariesBySender(addressFromNumber(0xa), {
                endVersion: 17n,
                limit: 10
              })
            )
          ).toEqual([16])
          // State visible at the oldest version survives, however old the write.
          const s = yield* l.stateAt(16n)
          expect(s.getVersioned(keyOf(2))).toEqual({
            value: stateValue(99),
            version: 0n
          })
          expect(s.get(keyOf(1))).toEqual(stateValue(8))
          expect((yield* l.blockByHeight(8n)).firstVersion).toBe(16n)
          // Pruned data is gone from the store itself, not only hidden.
          while (handle.pruneStep(100) > 0) {}
          for (let v = 0n; v < 16n; v++) expect(backend.transaction(v)).toBeUndefined()
          expect(backend.block(7n)).toBeUndefined()
          expect(backend.blockOfVersion(3n)).toBeUndefined()
          expect(backend.summariesForward(addressFromNumber(0xa), 0n, 19n, 100).map((x) => Number(x.version))).toEqual([
            16, 18
          ])
          expect(backend.stateGet(keyOf(1), 10n)).toBeUndefined()
          expect(backend.stateGet(keyOf(1), 15n)).toBeUndefined()
          expect(backend.stateGet(keyOf(1), 16n)).toEqual({
            value: stateValue(8),
            version: 16n
          })
          const hash = (yield* l.transactionByVersion(16n)).hash
          expect(backend.versionOfHash(hash)).toBe(16n)
        })
      ))

    it("keeps the latest block when it is longer than the window", () =>
      run(
        Effect.gen(function* () {
          const { handle } = yield* kind.open({ pruneWindow: 2n })
          const l = handle.service
          yield* l.commitBlock(block(1n, toCommit(checkpointTxn(0))))
          yield* l.commitBlock(block(2n, ...Array.from({ length: 4 }, (_, i) => toCommit(checkpointTxn(i + 1)))))
          const info = yield* l.ledgerInfo
          expect([info.oldestLedgerVersion, info.oldestBlockHeight]).toEqual([1n, 1n])
        })
      ))
  })
})

const versionsOf = (xs: ReadonlyArray<{ version: bigint }>) => xs.map((x) => Number(x.version))
