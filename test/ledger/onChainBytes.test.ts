import { Effect } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import type { ContractEvent } from "../../src/domain/ContractEvent.js"
import type { BlockToCommit } from "../../src/ledger/Ledger.js"
import { transactionBcs } from "../../src/node/render/transactionBcs.js"
import { checkpointTxn, eventOf, storeKinds, toCommit, userTxn, type Write } from "./fixtures.js"

/**
 * `transactionsBcsFrom` (the block feed's `TransactionOnChainData` copied from the LMDB records as
 * stored) answers exactly the bytes of encoding the transactions `transactionsFrom` reads, for any
 * mix of transactions, write sets (with and without metadata, deletions) and events (handle and
 * module events); and it checks versions as `transactionsFrom` does.
 */
const lmdb = storeKinds.find((k) => k.name === "lmdb")!

type Txn = { user: number | undefined; writes: Array<[number, number | undefined]>; events: number; metadata: boolean }
const txnArb: fc.Arbitrary<Txn> = fc.record({
  user: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
  writes: fc.array(
    fc.tuple(fc.integer({ min: 0, max: 6 }), fc.option(fc.integer({ min: 0, max: 255 }), { nil: undefined })),
    { maxLength: 4 }
  ),
  events: fc.integer({ min: 0, max: 3 }),
  metadata: fc.boolean()
})

const blocksOf = (model: ReadonlyArray<ReadonlyArray<Txn>>): ReadonlyArray<BlockToCommit> => {
  const sequence = new Map<number, bigint>()
  let handleEvents = 0n
  let checkpoint = 0
  return model.map((b, height) => ({
    epoch: 1n,
    timestampUsec: BigInt(height + 1) * 1000n,
    transactions: b.map((t) => {
      const events: ContractEvent[] = Array.from({ length: t.events }, (_, i) =>
        i % 2 === 0
          ? eventOf(i)
          : {
              _tag: "V1",
              key: { creationNumber: 3n, accountAddress: addressFromNumber(0x300) },
              sequenceNumber: handleEvents++,
              typeTag: { _tag: "u64" },
              data: new Uint8Array([i, height])
            }
      )
      const seq = t.user === undefined ? 0n : (sequence.get(t.user) ?? 0n)
      if (t.user !== undefined) sequence.set(t.user, seq + 1n)
      const transaction = t.user === undefined ? checkpointTxn(checkpoint++) : userTxn(0x100 + t.user, seq)
      return toCommit(transaction, t.writes as Write[], events, t.metadata)
    })
  }))
}

const genesis: BlockToCommit = { epoch: 0n, timestampUsec: 0n, transactions: [toCommit(checkpointTxn(255), [[0, 1]])] }

describe("transactionsBcsFrom on the LMDB store", () => {
  it("answers the encoding of what transactionsFrom reads, for any page", () =>
    fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(txnArb, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
        fc.nat(30),
        fc.integer({ min: 1, max: 30 }),
        (model, from, limit) =>
          Effect.runPromise(
            Effect.scoped(
              Effect.gen(function* () {
                const l = (yield* lmdb.open()).handle
                yield* l.commitGenesis(genesis, 4)
                yield* l.commitBlocks(blocksOf(model))
                const latest = (yield* l.service.ledgerInfo).ledgerVersion
                const start = BigInt(from) > latest ? latest : BigInt(from)
                const bytes = yield* l.service.transactionsBcsFrom!(start, limit)
                const objects = yield* l.service.transactionsFrom(start, limit)
                expect(bytes.length).toBe(objects.length)
                expect(bytes.map((b) => Buffer.from(b).toString("hex"))).toEqual(
                  objects.map((t) => Buffer.from(transactionBcs(t)).toString("hex"))
                )
                // Above the latest version: refused as transactionsFrom refuses it.
                const above = yield* Effect.flip(l.service.transactionsBcsFrom!(latest + 1n, 1))
                expect(above._tag).toBe((yield* Effect.flip(l.service.transactionsFrom(latest + 1n, 1)))._tag)
              })
            )
          )
      ),
      { numRuns: 30 }
    ))

  it("is absent on the memory store (the API encodes its objects)", () =>
    Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const memory = storeKinds.find((k) => k.name === "memory")!
          const l = (yield* memory.open()).handle
          expect(l.service.transactionsBcsFrom).toBeUndefined()
        })
      )
    ))
})
