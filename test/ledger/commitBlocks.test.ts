import { Effect } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import type { ContractEvent } from "../../src/domain/ContractEvent.js"
import type { BlockToCommit, LedgerService } from "../../src/ledger/Ledger.js"
import { openLmdbBackend } from "../../src/ledger/LmdbBackend.js"
import { makeLedgerService } from "../../src/ledger/makeLedgerService.js"
import { prepareBlock } from "../../src/ledger/prepareBlock.js"
import { checkpointTxn, keyOf, storeKinds, tempDir, toCommit, userTxn, type Write } from "./fixtures.js"

/**
 * `commitBlocks` (several blocks in one atomic step: a follower catching up) on both stores: the
 * same blocks committed in groups read exactly as committed one at a time (every version's state,
 * transactions, roots, blocks, summaries, events, the head), and a group with a block the ledger
 * refuses commits none of its blocks.
 */
const KEYS = 5
const SENDERS = 2

type Txn = { sender: number | undefined; writes: Array<[number, number | undefined]>; event: boolean }
const txnArb: fc.Arbitrary<Txn> = fc.record({
  sender: fc.option(fc.integer({ min: 0, max: SENDERS - 1 }), { nil: undefined }),
  writes: fc.array(
    fc.tuple(fc.integer({ min: 0, max: KEYS - 1 }), fc.option(fc.integer({ min: 0, max: 255 }), { nil: undefined })),
    { maxLength: 3 }
  ),
  event: fc.boolean()
})

/** The blocks to commit, sequence numbers and event numbers counted from zero, timestamps growing. */
const blocksOf = (blocks: ReadonlyArray<ReadonlyArray<Txn>>): ReadonlyArray<BlockToCommit> => {
  const counters = new Map<string, bigint>()
  const next = (k: string) => {
    const n = counters.get(k) ?? 0n
    counters.set(k, n + 1n)
    return n
  }
  let checkpoint = 0
  return blocks.map((b, height) => ({
    epoch: 1n,
    timestampUsec: BigInt(height + 1) * 1000n,
    transactions: b.map((t) => {
      const events: ContractEvent[] = t.event
        ? [
            {
              _tag: "V1",
              key: { creationNumber: 1n, accountAddress: addressFromNumber(0x200) },
              sequenceNumber: next("e"),
              typeTag: { _tag: "u64" },
              data: new Uint8Array([height])
            }
          ]
        : []
      const transaction =
        t.sender === undefined ? checkpointTxn(checkpoint++) : userTxn(0x100 + t.sender, next(`s${t.sender}`))
      return toCommit(transaction, t.writes as Write[], events, true)
    })
  }))
}

/** Everything the service reads, at every version, as plain data. */
const fingerprint = (l: LedgerService) =>
  Effect.gen(function* () {
    const info = yield* l.ledgerInfo
    const versions: unknown[] = []
    for (let v = 0n; v <= info.ledgerVersion; v++) {
      const state = yield* l.stateAt(v)
      const t = yield* l.transactionByVersion(v)
      versions.push({
        state: Array.from({ length: KEYS }, (_, k) => [state.getVersioned(keyOf(k)), state.metadata?.(keyOf(k))]),
        hash: Buffer.from(t.hash).toString("hex"),
        root: Buffer.from(t.accumulatorRootHash).toString("hex"),
        byHash: (yield* l.transactionByHash(t.hash)).version,
        block: yield* l.blockByVersion(v)
      })
    }
    const senders: unknown[] = []
    for (let s = 0; s < SENDERS; s++)
      senders.push((yield* l.accountTransactions(addressFromNumber(0x100 + s), 0n, 1000)).map((x) => x.version))
    const events = (yield* l.eventsByKey({
      address: addressFromNumber(0x200),
      creationNumber: 1n,
      start: 0n,
      limit: 1000
    })).map((e) => [e.version, e.event.sequenceNumber])
    return { info, versions, senders, events }
  })

const genesisBlock: BlockToCommit = {
  epoch: 0n,
  timestampUsec: 0n,
  transactions: [toCommit(checkpointTxn(255), [[0, 1]])]
}

describe.each(storeKinds)("commitBlocks on the $name store", (kind) => {
  it("reads as the same blocks committed one at a time", () =>
    fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(txnArb, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 8, maxLength: 8 }),
        (model, groupSizes) =>
          Effect.runPromise(
            Effect.scoped(
              Effect.gen(function* () {
                const blocks = blocksOf(model)
                const one = (yield* kind.open()).handle
                const grouped = (yield* kind.open()).handle
                for (const l of [one, grouped]) yield* l.commitGenesis(genesisBlock, 4)
                for (const b of blocks) yield* one.service.commitBlock(b)
                for (let i = 0, g = 0; i < blocks.length; g++) {
                  const group = blocks.slice(i, i + groupSizes[g % groupSizes.length]!)
                  const infos = yield* grouped.commitBlocks(group)
                  expect(infos.map((b) => b.lastVersion - b.firstVersion + 1n)).toEqual(
                    group.map((b) => BigInt(b.transactions.length))
                  )
                  i += group.length
                }
                expect(yield* fingerprint(grouped.service)).toEqual(yield* fingerprint(one.service))
                expect(grouped.head()).toEqual(one.head())
              })
            )
          )
      ),
      { numRuns: kind.name === "lmdb" ? 25 : 100 }
    ))

  it("a group holding a block the ledger refuses commits none of the group", () =>
    Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const l = (yield* kind.open()).handle
          yield* l.commitGenesis(genesisBlock, 4)
          const [a, b] = blocksOf([
            [{ sender: 0, writes: [[1, 2]], event: true }],
            [{ sender: 1, writes: [[2, 3]], event: false }]
          ])
          const before = l.head()
          // An empty block (a block holds at least one transaction) after a good one.
          const refused = yield* Effect.flip(
            l.commitBlocks([a!, { epoch: 1n, timestampUsec: 5000n, transactions: [] }])
          )
          expect(refused._tag).toBe("StorageError")
          expect(l.head()).toEqual(before)
          expect((yield* l.service.ledgerInfo).ledgerVersion).toBe(0n)
          yield* l.commitBlocks([a!, b!])
          expect((yield* l.service.ledgerInfo).ledgerVersion).toBe(2n)
        })
      )
    ))
})

describe("commitBlocks on an fsync'd LMDB store", () => {
  it("is one durable step: after it, a reopened store holds every block of the group", () =>
    Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const dir = yield* tempDir()
          const blocks = blocksOf([
            [{ sender: 0, writes: [[1, 2]], event: true }],
            [
              {
                sender: 1,
                writes: [
                  [1, 3],
                  [2, 4]
                ],
                event: false
              }
            ],
            [{ sender: undefined, writes: [], event: true }]
          ])
          const first = makeLedgerService(openLmdbBackend({ path: dir, sync: true }))
          yield* first.commitGenesis(genesisBlock, 4)
          const infos = yield* first.commitBlocks(blocks)
          expect(infos.map((b) => b.height)).toEqual([1n, 2n, 3n])
          const expected = yield* fingerprint(first.service)
          first.close()
          const again = makeLedgerService(openLmdbBackend({ path: dir, sync: true }))
          expect(yield* fingerprint(again.service)).toEqual(expected)
          again.close()
        })
      )
    ))
})

/**
 * An fsync'd store writes a block ahead: its puts are recorded while the records are encoded, then
 * queued to lmdb-js's write thread in one stretch (`LmdbBackend.commitMany`). It must read as the
 * same store writing inside the transaction, durably, and an encoding that fails must queue nothing.
 */
describe("writing blocks ahead on an fsync'd LMDB store", () => {
  it("reads as the store that writes inside the transaction, and again after reopening", () =>
    fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(txnArb, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 3 }),
        (model, groupSize) =>
          Effect.runPromise(
            Effect.scoped(
              Effect.gen(function* () {
                const blocks = blocksOf(model)
                const aheadDir = yield* tempDir()
                const ahead = makeLedgerService(openLmdbBackend({ path: aheadDir, sync: true }))
                const inside = makeLedgerService(
                  openLmdbBackend({ path: yield* tempDir(), sync: true, writeAhead: false })
                )
                for (const l of [ahead, inside]) yield* l.commitGenesis(genesisBlock, 4)
                // Half the blocks one at a time (`commit`), the rest in groups (`commitMany`).
                const half = Math.ceil(blocks.length / 2)
                for (const l of [ahead, inside]) {
                  for (const b of blocks.slice(0, half)) yield* l.service.commitBlock(b)
                  for (let i = half; i < blocks.length; i += groupSize)
                    yield* l.commitBlocks(blocks.slice(i, i + groupSize))
                }
                const expected = yield* fingerprint(inside.service)
                expect(yield* fingerprint(ahead.service)).toEqual(expected)
                expect(ahead.head()).toEqual(inside.head())
                inside.close()
                yield* Effect.promise(async () => ahead.close())
                const reopened = makeLedgerService(openLmdbBackend({ path: aheadDir, sync: true }))
                expect(yield* fingerprint(reopened.service)).toEqual(expected)
                reopened.close()
              })
            )
          )
      ),
      { numRuns: 12 }
    ))

  it("queues nothing of a block whose encoding fails part-way", () =>
    Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const dir = yield* tempDir()
          const backend = openLmdbBackend({ path: dir, sync: true })
          const l = makeLedgerService(backend)
          yield* l.commitGenesis(genesisBlock, 4)
          // The failing block: its first transaction alone writes key 3; its second cannot be encoded.
          const [failing] = blocksOf([
            [
              { sender: 1, writes: [[3, 9]], event: true },
              { sender: 0, writes: [[2, 5]], event: false }
            ]
          ])
          const prepared = prepareBlock(backend.head(), failing!, {
            chainId: 4,
            window: undefined,
            blockOfVersion: backend.blockOfVersion
          })
          const [first, second] = prepared.transactions
          const broken = { ...second!, accumulatorRootHash: undefined as unknown as Uint8Array }
          const before = backend.head()
          expect(() => backend.commit({ ...prepared, transactions: [first!, broken] }, 0)).toThrow()
          expect(backend.head()).toEqual(before)
          // A block at the same height commits; whatever the failed one had queued would go with it.
          const [good] = blocksOf([[{ sender: 0, writes: [[1, 2]], event: true }]])
          yield* l.service.commitBlock(good!)
          const check = (service: LedgerService) =>
            Effect.gen(function* () {
              expect((yield* service.ledgerInfo).ledgerVersion).toBe(1n)
              expect((yield* Effect.flip(service.transactionByHash(first!.hash)))._tag).toBe("TransactionNotFound")
              expect((yield* service.stateAt(1n)).getVersioned(keyOf(3))).toBeUndefined()
              expect((yield* service.stateAt(1n)).getVersioned(keyOf(1))).toBeDefined()
            })
          yield* check(l.service)
          yield* Effect.promise(async () => l.close())
          const reopened = makeLedgerService(openLmdbBackend({ path: dir, sync: true }))
          yield* check(reopened.service)
          reopened.close()
        })
      )
    ))
})
