import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber, Latch, Layer } from "effect"
import { TestClock } from "effect/testing"
import { BlockProducer, BlockProducerConfig, defaultBlockProducerConfig } from "../../src/chain/BlockProducer.js"
import { type BlockCommittedEvent, type ChainEvent, ChainEvents } from "../../src/chain/ChainEvents.js"
import { Mempool } from "../../src/chain/Mempool.js"
import { defaultMempoolConfig, MempoolConfig } from "../../src/chain/mempool/MempoolConfig.js"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { ProductionGate } from "../../src/chain/ProductionGate.js"
import { ConfigKeys, decodeConfiguration } from "../../src/chain/onChainConfig.js"
import { eventRootHash, writeSetHash } from "../../src/domain/outputHashes.js"
import type { Transaction } from "../../src/domain/Transaction.js"
import { Ledger, type LedgerService } from "../../src/ledger/Ledger.js"
import { StorageError } from "../../src/ledger/LedgerError.js"
import { LedgerMemory } from "../../src/ledger/index.js"
import {
  bcsOf,
  type FakeVm,
  fakeVmLayer,
  makeFakeVm,
  seqOf,
  signedTxn,
  type SyntheticOptions,
  syntheticGenesis,
  VALIDATOR
} from "./fakeChain.js"

const chain = (
  o: SyntheticOptions = {},
  vm: FakeVm = makeFakeVm(),
  mining = MiningMode.manual,
  /** Wraps the memory ledger's `commitBlock` (a commit that waits, or fails). */
  commit?: (real: LedgerService["commitBlock"]) => LedgerService["commitBlock"]
) => {
  const memory = LedgerMemory.layer({ genesis: syntheticGenesis(o) })
  const ledger =
    commit === undefined
      ? memory
      : Layer.effect(
          Ledger,
          Effect.map(Ledger, (l) => Ledger.of({ ...l, commitBlock: commit(l.commitBlock) }))
        ).pipe(Layer.provide(memory))
  const base = Layer.mergeAll(ledger, fakeVmLayer(vm), ChainEvents.layer)
  return Layer.provideMerge(BlockProducer.layer, Layer.provideMerge(Mempool.layer, base)).pipe(
    Layer.provide(Layer.succeed(BlockProducerConfig, { ...defaultBlockProducerConfig, mining }))
  )
}

const submit = (sender: number, seq: bigint, o: Parameters<typeof signedTxn>[2] = {}) =>
  Effect.flatMap(Mempool, (m) => {
    const t = signedTxn(sender, seq, o)
    return m.submit(t, bcsOf(t))
  })

const kinds = (ts: ReadonlyArray<{ readonly transaction: Transaction }>) =>
  ts.map((t) =>
    t.transaction._tag === "UserTransaction"
      ? `user:${Number(t.transaction.signed.rawTransaction.sender[31])}`
      : t.transaction._tag
  )

/** The ledger transactions of block `height`. */
const blockTransactions = (height: bigint) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const b = yield* ledger.blockByHeight(height)
    const out = []
    for (let v = b.firstVersion; v <= b.lastVersion; v++) out.push(yield* ledger.transactionByVersion(v))
    return out
  })

/** A committed-block event (these tests never rewind). */
const blockEvent = (e: ChainEvent): BlockCommittedEvent => {
  if (e._tag !== "BlockCommitted") throw new Error(`expected a committed block, got ${e._tag}`)
  return e
}

/** Collects the next event published (subscribe first, then run `act`). */
const nextEvent = <A, E, R>(act: Effect.Effect<A, E, R>) =>
  Effect.scoped(
    Effect.gen(function* () {
      const take = yield* (yield* ChainEvents).subscription
      const a = yield* act
      const event: ChainEvent = yield* take
      return [a, blockEvent(event)] as const
    })
  )

describe("BlockProducer", () => {
  it.effect("makes a block of metadata, the ready transactions and a V1 block epilogue, committed atomically", () =>
    Effect.gen(function* () {
      yield* submit(1, 0n)
      yield* submit(2, 0n)
      yield* submit(1, 1n)
      const [block, event] = yield* nextEvent(Effect.flatMap(BlockProducer, (p) => p.produce))
      assert.strictEqual(block.height, 1n)
      assert.strictEqual(block.firstVersion, 1n)
      const txns = yield* blockTransactions(1n)
      assert.deepStrictEqual(kinds(txns), ["BlockMetadata", "user:1", "user:2", "user:1", "BlockEpilogue"])
      const meta = txns[0]!.transaction
      assert.ok(meta._tag === "BlockMetadata")
      assert.deepStrictEqual(meta.metadata.proposer, VALIDATOR)
      assert.strictEqual(meta.metadata.epoch, 1n)
      assert.strictEqual(meta.metadata.round, 1n)
      // The epilogue carries the fee distribution: (10 gas − 0 storage) × (100 − 90) octas per txn to index 0.
      const end = txns[4]!.transaction
      assert.ok(end._tag === "BlockEpilogue")
      assert.deepStrictEqual(end.feeDistribution, [[0n, 300n]])
      assert.strictEqual(end.blockEndInfo?.blockEffectiveBlockGasUnits, 30n)
      assert.deepStrictEqual(
        event.committed.map((c) => c.version),
        [2n, 3n, 4n]
      )
      assert.deepStrictEqual(event.block, block)
      const mempool = yield* Mempool
      assert.strictEqual(mempool.size(), 0)
      const state = yield* Effect.flatMap(Ledger, (l) => l.stateAt(block.lastVersion))
      assert.strictEqual(seqOf(state, 1), 2n)
      assert.strictEqual(seqOf(state, 2), 1n)
    }).pipe(Effect.provide(chain()))
  )

  it.effect(
    "records each transaction's output hashes, hashed while the block executes, as the ledger computes them",
    () =>
      Effect.gen(function* () {
        yield* submit(1, 0n)
        yield* submit(2, 0n)
        yield* Effect.flatMap(BlockProducer, (p) => p.produce)
        const txns = yield* blockTransactions(1n)
        assert.strictEqual(txns.length, 4)
        for (const t of txns) {
          assert.deepStrictEqual(t.info.eventRootHash, eventRootHash(t.events))
          assert.deepStrictEqual(t.info.stateChangeHash, writeSetHash(t.writeSet))
          // The user transactions' events differ from the block's metadata's: the hashes are each its own.
          if (t.transaction._tag === "UserTransaction")
            assert.isFalse(Buffer.from(t.info.eventRootHash).equals(Buffer.from(txns[0]!.info.eventRootHash)))
        }
      }).pipe(Effect.provide(chain()))
  )

  it.effect("parks a future sequence number until the gap fills, then includes the run", () =>
    Effect.gen(function* () {
      const producer = yield* BlockProducer
      yield* submit(1, 1n)
      yield* submit(1, 2n)
      assert.strictEqual(yield* producer.produceIfReady, undefined)
      const empty = yield* producer.produce
      assert.deepStrictEqual(kinds(yield* blockTransactions(empty.height)), ["BlockMetadata", "BlockEpilogue"])
      yield* submit(1, 0n)
      const full = yield* producer.produceIfReady
      assert.deepStrictEqual(kinds(yield* blockTransactions(full!.height)), [
        "BlockMetadata",
        "user:1",
        "user:1",
        "user:1",
        "BlockEpilogue"
      ])
      assert.strictEqual((yield* Mempool).size(), 0)
    }).pipe(Effect.provide(chain()))
  )

  it.effect("refuses what validation refuses, except a sequence number ahead (parked)", () =>
    Effect.gen(function* () {
      const bad = yield* Effect.flip(submit(1, 0n, { badSignature: true }))
      assert.strictEqual(bad._tag, "InvalidTransaction")
      assert.ok(bad._tag === "InvalidTransaction" && bad.statusName === "INVALID_SIGNATURE" && bad.statusCode === 1n)
      yield* submit(1, 5n)
      yield* submit(1, 0n)
      yield* (yield* BlockProducer).produce
      const old = yield* Effect.flip(submit(1, 0n))
      assert.ok(
        old._tag === "InvalidTransaction" && old.statusName === "SEQUENCE_NUMBER_TOO_OLD" && old.statusCode === 3n
      )
    }).pipe(Effect.provide(chain()))
  )

  it.effect("keeps failed transactions (sequence number consumed) and drops discarded ones, telling listeners", () =>
    Effect.gen(function* () {
      yield* submit(1, 0n, { function: "fail" })
      // Valid when submitted (the chain's clock is at 0), expired by the time the block runs.
      const expiring = yield* submit(2, 0n, { expiration: 1n })
      yield* submit(2, 1n)
      yield* TestClock.adjust("2 seconds")
      const [block, event] = yield* nextEvent(Effect.flatMap(BlockProducer, (p) => p.produce))
      const txns = yield* blockTransactions(block.height)
      assert.deepStrictEqual(kinds(txns), ["BlockMetadata", "user:1", "BlockEpilogue"])
      assert.notStrictEqual(txns[1]!.outcome.status._tag, "Success")
      assert.deepStrictEqual(event.discarded, [
        { hashKey: expiring.hashKey, status: { code: 6n, name: "TRANSACTION_EXPIRED" } }
      ])
      // 2:1 was not run (its predecessor was discarded) and waits in the pool behind the gap.
      const mempool = yield* Mempool
      assert.strictEqual(mempool.size(), 1)
      assert.strictEqual(mempool.best(10).length, 0)
      // A user-transaction epilogue V1 excludes failed transactions from the fee distribution.
      const end = txns[2]!.transaction
      assert.ok(end._tag === "BlockEpilogue")
      assert.deepStrictEqual(end.feeDistribution, [])
    }).pipe(Effect.provide(chain()))
  )

  it.effect(
    "ends the block after a reconfiguring prologue: no user transactions, no block end; they run next block",
    () =>
      Effect.gen(function* () {
        const producer = yield* BlockProducer
        yield* submit(1, 0n)
        // TestClock stands at 0: each block is one microsecond after the chain's clock; interval 2 µs.
        const first = yield* producer.produce
        assert.deepStrictEqual(kinds(yield* blockTransactions(first.height)), [
          "BlockMetadata",
          "user:1",
          "BlockEpilogue"
        ])
        yield* submit(1, 1n)
        const epochEnd = yield* producer.produce
        assert.deepStrictEqual(kinds(yield* blockTransactions(epochEnd.height)), ["BlockMetadata"])
        const state = yield* Effect.flatMap(Ledger, (l) => l.stateAt(epochEnd.lastVersion))
        assert.strictEqual(decodeConfiguration(state.get(ConfigKeys.configuration))?.epoch, 2n)
        const next = yield* producer.produce
        const txns = yield* blockTransactions(next.height)
        assert.deepStrictEqual(kinds(txns), ["BlockMetadata", "user:1", "BlockEpilogue"])
        const meta = txns[0]!.transaction
        assert.ok(meta._tag === "BlockMetadata" && meta.metadata.epoch === 2n && meta.metadata.round === 1n)
        assert.strictEqual(next.epoch, 2n)
      }).pipe(Effect.provide(chain({ epochIntervalUsec: 2n })))
  )

  it.effect("ends the block after a reconfiguring user transaction; the rest wait for the next block", () =>
    Effect.gen(function* () {
      const producer = yield* BlockProducer
      yield* submit(1, 0n, { gasUnitPrice: 300n, function: "reconfigure" })
      yield* submit(2, 0n)
      yield* submit(3, 0n, { nonce: 9n })
      const b = yield* producer.produce
      assert.deepStrictEqual(kinds(yield* blockTransactions(b.height)), ["BlockMetadata", "user:1"])
      assert.strictEqual((yield* Mempool).size(), 2)
      const c = yield* producer.produce
      assert.deepStrictEqual(kinds(yield* blockTransactions(c.height)), [
        "BlockMetadata",
        "user:2",
        "user:3",
        "BlockEpilogue"
      ])
    }).pipe(Effect.provide(chain()))
  )

  it.effect("ends blocks with a StateCheckpoint when the execution config keeps the outcome off chain", () =>
    Effect.gen(function* () {
      yield* submit(1, 0n)
      const b = yield* (yield* BlockProducer).produce
      const txns = yield* blockTransactions(b.height)
      assert.deepStrictEqual(kinds(txns), ["BlockMetadata", "user:1", "StateCheckpoint"])
      const meta = txns[0]!.transaction
      const end = txns[2]!.transaction
      assert.ok(meta._tag === "BlockMetadata" && end._tag === "StateCheckpoint")
      assert.deepStrictEqual(end.hash, meta.metadata.id)
    }).pipe(Effect.provide(chain({ blockEpilogue: false })))
  )

  it.effect("ends blocks with a BlockEpilogue V0 (no Move call) without fee distribution (flag 96 off)", () => {
    const vm = makeFakeVm()
    return Effect.gen(function* () {
      yield* submit(1, 0n)
      const b = yield* (yield* BlockProducer).produce
      const end = (yield* blockTransactions(b.height))[2]!.transaction
      assert.ok(end._tag === "BlockEpilogue")
      assert.strictEqual(end.feeDistribution, undefined)
      assert.strictEqual(vm.epilogueCalls.length, 0)
    }).pipe(Effect.provide(chain({ feeDistribution: false }, vm)))
  })

  it.effect("gives blocks strictly increasing timestamps, heights and distinct ids", () =>
    Effect.gen(function* () {
      const producer = yield* BlockProducer
      const blocks = []
      for (let i = 0; i < 5; i++) blocks.push(yield* producer.produce)
      const ids = new Set<string>()
      for (let i = 1; i < blocks.length; i++) {
        assert.ok(blocks[i]!.timestampUsec > blocks[i - 1]!.timestampUsec)
        assert.strictEqual(blocks[i]!.height, blocks[i - 1]!.height + 1n)
      }
      for (const b of blocks) {
        const meta = (yield* blockTransactions(b.height))[0]!.transaction
        assert.ok(meta._tag === "BlockMetadata")
        ids.add(Buffer.from(meta.metadata.id).toString("hex"))
      }
      assert.strictEqual(ids.size, 5)
    }).pipe(Effect.provide(chain()))
  )

  it.live("mines on its own in Instant mode, after the submission", () =>
    Effect.gen(function* () {
      const events = yield* ChainEvents
      const [entry, event, second] = yield* Effect.scoped(
        Effect.gen(function* () {
          const take = yield* events.subscription
          const e = yield* submit(7, 0n)
          return [e, blockEvent(yield* take), blockEvent(yield* take)] as const
        })
      )
      // The first block after genesis (clock at 0) reconfigures at the wall clock's time, so it
      // holds only its metadata; the transaction is in the block after it, made without being asked.
      assert.deepStrictEqual(event.committed, [])
      assert.deepStrictEqual(
        second.committed.map((c) => c.hashKey),
        [entry.hashKey]
      )
      assert.strictEqual(second.block.height, 2n)
    }).pipe(
      Effect.provide(
        Layer.provideMerge(BlockProducer.loop, chain({}, makeFakeVm(), MiningMode.still(1))).pipe(
          Layer.provide(
            Layer.succeed(BlockProducerConfig, { ...defaultBlockProducerConfig, mining: MiningMode.still(1) })
          )
        )
      )
    )
  )

  it.live("in Instant mode, holds a block while a registered ProductionGate waits", () =>
    Effect.gen(function* () {
      const events = yield* ChainEvents
      const gate = yield* ProductionGate
      let open = false
      let asked = 0
      gate.register(
        Effect.suspend(() => {
          asked++
          return open ? Effect.void : Effect.sleep("10 millis")
        }).pipe(Effect.repeat({ until: () => open }))
      )
      const [entry, event] = yield* Effect.scoped(
        Effect.gen(function* () {
          const take = yield* events.subscription
          const e = yield* submit(7, 0n)
          yield* Effect.sleep("100 millis")
          const ledger = yield* Ledger
          assert.strictEqual((yield* ledger.ledgerInfo).blockHeight, 0n, "no block while the gate waits")
          assert.isAbove(asked, 0)
          open = true
          return [e, blockEvent(yield* take)] as const
        })
      )
      assert.strictEqual(event.block.height, 1n)
      assert.ok(event.committed.length === 0 || event.committed[0]!.hashKey === entry.hashKey)
    }).pipe(
      Effect.provide(
        Layer.provideMerge(
          BlockProducer.loop,
          Layer.provideMerge(chain({}, makeFakeVm(), MiningMode.still(1)), ProductionGate.layer)
        ).pipe(
          Layer.provide(
            Layer.succeed(BlockProducerConfig, { ...defaultBlockProducerConfig, mining: MiningMode.still(1) })
          )
        )
      )
    )
  )

  it.live("mines a block every interval in Interval mode (--block-time), empty or not", () =>
    Effect.gen(function* () {
      const events = yield* ChainEvents
      const [empty, entry, withIt] = yield* Effect.scoped(
        Effect.gen(function* () {
          const take = yield* events.subscription
          const empty = [blockEvent(yield* take), blockEvent(yield* take), blockEvent(yield* take)]
          const e = yield* submit(7, 0n)
          // Blocks already under way may come first; the transaction is in one within a few intervals.
          let next = blockEvent(yield* take)
          for (let i = 0; i < 10 && next.committed.length === 0; i++) next = blockEvent(yield* take)
          return [empty, e, next] as const
        })
      )
      assert.deepStrictEqual(
        empty.map((e) => e.committed.length),
        [0, 0, 0]
      )
      const heights = empty.map((e) => e.block.height)
      assert.deepStrictEqual(heights, [heights[0]!, heights[0]! + 1n, heights[0]! + 2n])
      assert.deepStrictEqual(
        withIt.committed.map((c) => c.hashKey),
        [entry.hashKey]
      )
    }).pipe(
      Effect.provide(
        Layer.provideMerge(BlockProducer.loop, chain({}, makeFakeVm(), MiningMode.interval(30))).pipe(
          Layer.provide(
            Layer.succeed(BlockProducerConfig, { ...defaultBlockProducerConfig, mining: MiningMode.interval(30) })
          )
        )
      )
    )
  )

  it.effect(
    "makes the next block over the block in flight, commits it only after, and serves neither's transactions twice",
    () => {
      // The ledger's commits wait for `durable`: block 1 stays in flight while block 2 is made.
      const durable = Latch.makeUnsafe(false)
      const layer = chain(
        {},
        makeFakeVm(),
        MiningMode.manual,
        (commit) => (b) => Effect.andThen(durable.await, commit(b))
      )
      return Effect.gen(function* () {
        const producer = yield* BlockProducer
        const mempool = yield* Mempool
        const ledger = yield* Ledger
        const take = yield* (yield* ChainEvents).subscription
        yield* submit(1, 0n)
        yield* submit(2, 0n)
        yield* producer.produceNext
        assert.strictEqual((yield* ledger.ledgerInfo).blockHeight, 0n)
        const inFlight = producer.blockInFlight()
        assert.strictEqual(inFlight?.hashKeys.size, 2)
        // Still pending (by hash) until committed; nothing more to make past the block in flight.
        assert.strictEqual(mempool.size(), 2)
        assert.strictEqual(mempool.best(10, undefined, inFlight).length, 0)
        // 1:1 runs only over 1:0's write (the fake VM checks the sequence number in the state).
        yield* submit(1, 1n)
        yield* submit(3, 0n)
        const second = yield* Effect.forkChild(producer.produceNext)
        yield* Effect.yieldNow
        assert.strictEqual((yield* ledger.ledgerInfo).blockHeight, 0n)
        yield* durable.open
        yield* Fiber.join(second)
        const first = blockEvent(yield* take)
        assert.strictEqual(first.block.height, 1n)
        yield* producer.produce
        const next = blockEvent(yield* take)
        assert.strictEqual(next.block.height, 2n)
        assert.deepStrictEqual(kinds(yield* blockTransactions(1n)), [
          "BlockMetadata",
          "user:1",
          "user:2",
          "BlockEpilogue"
        ])
        assert.deepStrictEqual(kinds(yield* blockTransactions(2n)), [
          "BlockMetadata",
          "user:1",
          "user:3",
          "BlockEpilogue"
        ])
        const rounds = []
        for (const h of [1n, 2n, 3n]) {
          const m = (yield* blockTransactions(h))[0]!.transaction
          assert.ok(m._tag === "BlockMetadata")
          rounds.push([m.metadata.round, m.metadata.timestampUsecs] as const)
        }
        assert.deepStrictEqual(
          rounds.map(([r]) => r),
          [1n, 2n, 3n]
        )
        assert.ok(rounds[0]![1] < rounds[1]![1] && rounds[1]![1] < rounds[2]![1])
        const state = yield* ledger.stateAt((yield* ledger.ledgerInfo).ledgerVersion)
        assert.deepStrictEqual([seqOf(state, 1), seqOf(state, 2), seqOf(state, 3)], [2n, 1n, 1n])
        assert.strictEqual(mempool.size(), 0)
        assert.strictEqual(producer.blockInFlight(), undefined)
      }).pipe(Effect.scoped, Effect.provide(layer))
    }
  )

  it.effect(
    "does not drop as expired, when the block in flight commits, what the block made over it took: that block commits it",
    () => {
      const durable = Latch.makeUnsafe(false)
      const layer = chain(
        {},
        makeFakeVm(),
        MiningMode.manual,
        (commit) => (b) => Effect.andThen(durable.await, commit(b))
      ).pipe(Layer.provide(Layer.succeed(MempoolConfig, { ...defaultMempoolConfig, systemTtlSecs: 1 })))
      return Effect.gen(function* () {
        const producer = yield* BlockProducer
        const mempool = yield* Mempool
        const take = yield* (yield* ChainEvents).subscription
        yield* submit(1, 0n)
        yield* producer.produceNext
        // Block 2, made over block 1 in flight, takes 2:0; then 2:0 outlives the pool's TTL before
        // block 1 is durable.
        const late = yield* submit(2, 0n)
        const second = yield* Effect.forkChild(producer.produceNext)
        yield* Effect.yieldNow
        yield* TestClock.adjust("2 seconds")
        yield* durable.open
        yield* Fiber.join(second)
        const first = blockEvent(yield* take)
        assert.deepStrictEqual(first.dropped, [])
        yield* producer.produce
        const next = blockEvent(yield* take)
        assert.deepStrictEqual(
          next.committed.map((c) => c.hashKey),
          [late.hashKey]
        )
        assert.deepStrictEqual(kinds(yield* blockTransactions(2n)), ["BlockMetadata", "user:2", "BlockEpilogue"])
        assert.strictEqual(mempool.size(), 0)
      }).pipe(Effect.scoped, Effect.provide(layer))
    }
  )

  it.effect(
    "keeps a failed block in flight's transactions pooled; the next block fails with it, then they commit",
    () => {
      let failures = 1
      const layer = chain(
        {},
        makeFakeVm(),
        MiningMode.manual,
        (commit) => (b) =>
          failures-- > 0 ? Effect.fail(new StorageError({ message: "disk full (a test's)" })) : commit(b)
      )
      return Effect.gen(function* () {
        const producer = yield* BlockProducer
        const mempool = yield* Mempool
        yield* submit(1, 0n)
        yield* submit(2, 0n)
        yield* producer.produceNext
        yield* submit(1, 1n)
        const failed = yield* Effect.flip(producer.produceNext)
        assert.include(failed.message, "disk full")
        assert.strictEqual(producer.blockInFlight(), undefined)
        assert.strictEqual(mempool.size(), 3)
        const block = yield* producer.produce
        assert.strictEqual(block.height, 1n)
        assert.deepStrictEqual(kinds(yield* blockTransactions(1n)), [
          "BlockMetadata",
          "user:1",
          "user:2",
          "user:1",
          "BlockEpilogue"
        ])
        assert.strictEqual(mempool.size(), 0)
      }).pipe(Effect.provide(layer))
    }
  )
})
