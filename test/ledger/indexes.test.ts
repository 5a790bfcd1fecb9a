/**
 * The reads added for the API's listings, on both stores: transaction infos and the accumulator
 * computed at commit (and continued across a reopen), transaction ranges, an account's sequence
 * numbers, event streams by key, and paged account state (long keys included), with pruning.
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import type { ContractEvent } from "../../src/domain/ContractEvent.js"
import { accumulatorRootOf } from "../../src/domain/MerkleAccumulator.js"
import { eventRootHash, writeSetHash } from "../../src/domain/outputHashes.js"
import { transactionInfoHash } from "../../src/domain/TransactionInfoCodec.js"
import type { StructTag, TypeTag } from "../../src/domain/TypeTag.js"
import type { WriteOp, WriteSetEntry } from "../../src/domain/WriteSet.js"
import { compareKeyBytes, makeWriteSetEntry } from "../../src/domain/WriteSetCodec.js"
import type { BlockToCommit, CommittedTransaction, TransactionToCommit } from "../../src/ledger/Ledger.js"
import { MAX_RAW_STATE_KEY } from "../../src/ledger/lmdbKeys.js"
import { checkpointTxn, storeKinds, tempDir, toCommit, userTxn } from "./fixtures.js"

const run = <A, E>(effect: Effect.Effect<A, E, any>): Promise<A> =>
  Effect.runPromise(Effect.scoped(effect) as Effect.Effect<A, E>)

const tagOf = <A, E extends { _tag: string }>(effect: Effect.Effect<A, E>) =>
  Effect.map(Effect.flip(effect), (e) => e._tag)

const block = (timestampUsec: bigint, ...transactions: ReadonlyArray<TransactionToCommit>): BlockToCommit => ({
  epoch: 1n,
  timestampUsec,
  transactions
})

const ACCOUNT = addressFromNumber(0xa11ce)
const OTHER = addressFromNumber(0xb0b)

const struct = (name: string, typeArgs: ReadonlyArray<TypeTag> = []): StructTag => ({
  address: addressFromNumber(1),
  module: "m",
  name,
  typeArgs
})

/** A resource key of `owner`; `long` makes its BCS longer than LMDB's raw key limit. */
const resourceEntry = (owner: Uint8Array, name: string, op: WriteOp, long = false): WriteSetEntry =>
  makeWriteSetEntry(
    {
      _tag: "AccessPath",
      address: owner,
      path: {
        _tag: "Resource",
        struct: struct(
          name,
          long
            ? Array.from(
                { length: 12 },
                (_, i) => ({ _tag: "struct", struct: struct(`T${i}${"x".repeat(90)}`) }) as TypeTag
              )
            : []
        )
      }
    },
    op
  )

const moduleEntry = (owner: Uint8Array, name: string): WriteSetEntry =>
  makeWriteSetEntry(
    { _tag: "AccessPath", address: owner, path: { _tag: "Code", module: { address: owner, name } } },
    {
      _tag: "Creation",
      data: new Uint8Array([0xa1, 0x1c])
    }
  )

const write = (n: number): WriteOp => ({ _tag: "Modification", data: new Uint8Array([n]) })

const withWrites = (t: TransactionToCommit, entries: ReadonlyArray<WriteSetEntry>): TransactionToCommit => ({
  ...t,
  writeSet: { entries: [...entries].sort((a, b) => compareKeyBytes(a.keyBytes, b.keyBytes)) }
})

const handleEvent = (creationNumber: bigint, sequenceNumber: bigint, owner = ACCOUNT): ContractEvent => ({
  _tag: "V1",
  key: { creationNumber, accountAddress: owner },
  sequenceNumber,
  typeTag: { _tag: "u64" },
  data: new Uint8Array([Number(sequenceNumber)])
})

const moduleEvent: ContractEvent = { _tag: "V2", typeTag: { _tag: "bool" }, data: new Uint8Array([1]) }

const versionsOf = (ts: ReadonlyArray<{ readonly version: bigint }>) => ts.map((t) => Number(t.version))

describe.each(storeKinds)("ledger indexes over the $name store", (kind) => {
  it("records each transaction's info and the accumulator root after it", () =>
    run(
      Effect.gen(function* () {
        const { handle } = yield* kind.open()
        const l = handle.service
        const t0 = { ...toCommit(checkpointTxn(1)), events: [handleEvent(0n, 0n), moduleEvent] }
        const t1 = withWrites(toCommit(userTxn(0xa, 0n)), [resourceEntry(ACCOUNT, "R", write(1))])
        yield* l.commitBlock(block(7n, t0, t1))
        yield* l.commitBlock(block(8n, toCommit(checkpointTxn(2))))
        const all: CommittedTransaction[] = []
        for (let v = 0n; v <= 2n; v++) all.push(yield* l.transactionByVersion(v))
        for (const [i, t] of all.entries()) {
          expect(t.info.transactionHash).toEqual(t.hash)
          expect(t.info.stateChangeHash).toEqual(writeSetHash(t.writeSet))
          expect(t.info.eventRootHash).toEqual(eventRootHash(t.events))
          expect(t.info.gasUsed).toBe(7n)
          expect(t.info.status).toEqual({ _tag: "Success" })
          expect(t.info.stateCheckpointHash).toBeUndefined()
          expect(t.accumulatorRootHash).toEqual(
            accumulatorRootOf(
              "TransactionAccumulator",
              all.slice(0, i + 1).map((x) => transactionInfoHash(x.info))
            )
          )
        }
        expect(all.map((t) => t.timestampUsec)).toEqual([7n, 7n, 8n])
        expect(handle.head()?.accumulator.leaves).toBe(3n)
      })
    ))

  it("lists transaction ranges, stopping at the latest version and failing outside the ledger", () =>
    run(
      Effect.gen(function* () {
        const { handle } = yield* kind.open()
        const l = handle.service
        yield* l.commitBlock(
          block(1n, toCommit(checkpointTxn(0)), toCommit(checkpointTxn(1)), toCommit(checkpointTxn(2)))
        )
        expect(versionsOf(yield* l.transactionsFrom(1n, 10))).toEqual([1, 2])
        expect(versionsOf(yield* l.transactionsFrom(0n, 2))).toEqual([0, 1])
        expect(versionsOf(yield* l.transactionsFrom(2n, 0))).toEqual([])
        expect(yield* tagOf(l.transactionsFrom(3n, 1))).toBe("VersionNotFound")
      })
    ))

  it("finds an account's sequence-number transactions from a sequence number (orderless ones excluded)", () =>
    run(
      Effect.gen(function* () {
        const { handle } = yield* kind.open()
        const l = handle.service
        yield* l.commitBlock(
          block(1n, toCommit(userTxn(0xa, 0n)), toCommit(userTxn(0xb, 0n)), toCommit(userTxn(0xa, 0n, 77n)))
        )
        yield* l.commitBlock(block(2n, toCommit(userTxn(0xa, 1n)), toCommit(userTxn(0xa, 2n))))
        const a = addressFromNumber(0xa)
        expect(versionsOf(yield* l.accountTransactions(a, 0n, 10))).toEqual([0, 3, 4])
        expect(versionsOf(yield* l.accountTransactions(a, 1n, 1))).toEqual([3])
        expect(versionsOf(yield* l.accountTransactions(a, 5n, 10))).toEqual([])
        expect(versionsOf(yield* l.accountTransactions(a, 0n, 0))).toEqual([])
        expect(versionsOf(yield* l.accountTransactions(addressFromNumber(0xb), 0n, 10))).toEqual([1])
        expect(versionsOf(yield* l.accountTransactions(addressFromNumber(0xc), 0n, 10))).toEqual([])
      })
    ))

  it("indexes handle events by stream and sequence number; module events are not indexed", () =>
    run(
      Effect.gen(function* () {
        const { handle } = yield* kind.open()
        const l = handle.service
        const t = (events: ReadonlyArray<ContractEvent>, n: number) => ({ ...toCommit(checkpointTxn(n)), events })
        yield* l.commitBlock(block(1n, t([handleEvent(2n, 0n), moduleEvent, handleEvent(3n, 0n)], 0), t([], 1)))
        yield* l.commitBlock(block(2n, t([handleEvent(2n, 1n), handleEvent(2n, 2n), handleEvent(2n, 0n, OTHER)], 2)))
        const q = (start: bigint | undefined, limit: number, creationNumber = 2n, address = ACCOUNT) =>
          Effect.map(l.eventsByKey({ address, creationNumber, start, limit }), (es) =>
            es.map((e) => [Number(e.version), Number(e.event.sequenceNumber)])
          )
        expect(yield* q(0n, 10)).toEqual([
          [0, 0],
          [2, 1],
          [2, 2]
        ])
        expect(yield* q(1n, 1)).toEqual([[2, 1]])
        // No start: the newest `limit`, ascending.
        expect(yield* q(undefined, 2)).toEqual([
          [2, 1],
          [2, 2]
        ])
        expect(yield* q(undefined, 10, 3n)).toEqual([[0, 0]])
        expect(yield* q(undefined, 10, 2n, OTHER)).toEqual([[2, 0]])
        expect(yield* q(undefined, 10, 9n)).toEqual([])
        expect(yield* q(0n, 0)).toEqual([])
        const [first] = yield* l.eventsByKey({ address: ACCOUNT, creationNumber: 2n, start: 2n, limit: 1 })
        expect(first?.event).toEqual(handleEvent(2n, 2n))
      })
    ))

  it("pages an account's state in key order at a version, long keys and deletions included", () =>
    run(
      Effect.gen(function* () {
        const { handle } = yield* kind.open()
        const l = handle.service
        const names = ["A", "B", "C", "D", "E"]
        const long = resourceEntry(ACCOUNT, "L", write(9), true)
        expect(long.keyBytes.length).toBeGreaterThan(MAX_RAW_STATE_KEY)
        yield* l.commitBlock(
          block(
            1n,
            withWrites(toCommit(checkpointTxn(0)), [
              ...names.map((n, i) => resourceEntry(ACCOUNT, n, write(i))),
              moduleEntry(ACCOUNT, "mod"),
              resourceEntry(OTHER, "A", write(50)),
              long
            ])
          )
        )
        // Version 1: B deleted, F added.
        yield* l.commitBlock(
          block(
            2n,
            withWrites(toCommit(checkpointTxn(1)), [
              resourceEntry(ACCOUNT, "B", { _tag: "Deletion" }),
              resourceEntry(ACCOUNT, "F", write(6))
            ])
          )
        )
        const isResource = (k: Uint8Array) => !Buffer.from(k).includes(Buffer.from("mod"))
        const walk = (version: bigint, limit: number) =>
          Effect.gen(function* () {
            const seen: Uint8Array[] = []
            let start: Uint8Array | undefined
            for (let pages = 0; pages < 20; pages++) {
              const page = yield* l.statePage(version, {
                address: ACCOUNT,
                start,
                accept: isResource,
                limit,
                maxScan: 1000
              })
              expect(page.entries.length).toBeLessThanOrEqual(limit)
              seen.push(...page.entries.map((e) => e.keyBytes))
              if (page.next === undefined) return seen
              start = page.next
            }
            throw new Error("no end")
          })
        const expectedAt = (present: ReadonlyArray<string>) =>
          [...present.map((n) => resourceEntry(ACCOUNT, n, write(0)).keyBytes), long.keyBytes].sort(compareKeyBytes)
        for (const limit of [1, 2, 3, 100]) {
          expect(yield* walk(0n, limit)).toEqual(expectedAt(names))
          expect(yield* walk(1n, limit)).toEqual(expectedAt(["A", "C", "D", "E", "F"]))
        }
        // Values are the ones at the version read.
        const p0 = yield* l.statePage(0n, { address: ACCOUNT, accept: isResource, limit: 100, maxScan: 1000 })
        expect(p0.entries.find((e) => Buffer.from(e.keyBytes).equals(Buffer.from(long.keyBytes)))?.value).toEqual(
          new Uint8Array([9])
        )
        // Modules only.
        const mods = yield* l.statePage(1n, {
          address: ACCOUNT,
          accept: (k) => !isResource(k),
          limit: 100,
          maxScan: 1000
        })
        expect(mods.entries.map((e) => e.keyBytes)).toEqual([moduleEntry(ACCOUNT, "mod").keyBytes])
        // A scan budget ends the page early, with a cursor to continue from.
        const short = yield* l.statePage(1n, { address: ACCOUNT, accept: isResource, limit: 100, maxScan: 2 })
        expect(short.next).toBeDefined()
        expect(short.entries.length).toBeLessThanOrEqual(2)
        expect(yield* tagOf(l.statePage(5n, { address: ACCOUNT, accept: isResource, limit: 1, maxScan: 1 }))).toBe(
          "VersionNotFound"
        )
        const none = yield* l.statePage(1n, {
          address: addressFromNumber(0xdead),
          accept: isResource,
          limit: 5,
          maxScan: 5
        })
        expect(none).toEqual({ entries: [], next: undefined })
      })
    ))

  it("prunes the sequence and event indexes with their transactions", () =>
    run(
      Effect.gen(function* () {
        const { handle } = yield* kind.open({ pruneWindow: 2n, pruneBatch: 1_000 })
        const l = handle.service
        for (let h = 0n; h < 4n; h++)
          yield* l.commitBlock(block(h, { ...toCommit(userTxn(0xa, h)), events: [handleEvent(1n, h)] }))
        const a = addressFromNumber(0xa)
        expect(versionsOf(yield* l.accountTransactions(a, 0n, 10))).toEqual([2, 3])
        const events = yield* l.eventsByKey({ address: ACCOUNT, creationNumber: 1n, start: 0n, limit: 10 })
        expect(events.map((e) => Number(e.version))).toEqual([2, 3])
      })
    ))
})

describe("the accumulator across a reopen", () => {
  it("an LMDB store continues the accumulator it persisted, as a store never closed would", () =>
    run(
      Effect.gen(function* () {
        const lmdb = storeKinds.find((k) => k.name === "lmdb")!
        const memory = storeKinds.find((k) => k.name === "memory")!
        const dir = yield* tempDir()
        const blocks = [0, 1, 2, 3, 4].map((h) =>
          block(BigInt(h), ...Array.from({ length: h + 1 }, (_, i) => toCommit(checkpointTxn(h * 10 + i))))
        )
        const reference = (yield* memory.open()).handle.service
        for (const b of blocks) yield* reference.commitBlock(b)
        for (const [i, b] of blocks.entries())
          yield* Effect.scoped(
            Effect.gen(function* () {
              const { handle } = yield* lmdb.open(undefined, dir)
              yield* handle.service.commitBlock(b)
              if (i === blocks.length - 1) {
                const latest = (yield* handle.service.ledgerInfo).ledgerVersion
                for (let v = 0n; v <= latest; v++)
                  expect((yield* handle.service.transactionByVersion(v)).accumulatorRootHash).toEqual(
                    (yield* reference.transactionByVersion(v)).accumulatorRootHash
                  )
              }
            })
          )
      })
    ))
})
