/**
 * Admission's backpressure (Mempool.ts, `backpressureAt`): past that many pooled transactions, while
 * a block is being made, a burst of submissions is admitted over more event-loop turns (a smaller
 * budget per turn, so block production gets the turns), every one still accepted and in arrival
 * order — never refused for it; with no block being made, at full speed. Measured in turns against
 * the same burst into a pool below its threshold, not in time: the most admissions one turn ran.
 *
 * Why that measure, and the test's windows: budgets count wall-clock time in tasks, so on a loaded
 * machine a task the process was descheduled in uses up its turn's budget. That only lowers the
 * admissions per turn, so a bound from above holds whatever the scheduler does (a count of turns
 * did not: it rose for every run alike). "A block is being made" is a slice having run within a
 * window of wall-clock time, and the process can be descheduled for longer than the default
 * 100 ms: the deep run widens the window (a block is being made throughout it) and the idle run
 * starts after a pause longer than the window since the last slice (none is being made).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Bcs } from "../../../src/bcs/index.js"
import { Mempool } from "../../../src/chain/Mempool.js"
import { makeMempoolConfig, mempoolConfigLayer } from "../../../src/chain/mempool/MempoolConfig.js"
import { signedTransactionCodec } from "../../../src/domain/PayloadCodec.js"
import type { SignedTransaction } from "../../../src/domain/Transaction.js"
import { LedgerMemory } from "../../../src/ledger/index.js"
import { ChainVm } from "../../../src/chain/ChainVm.js"
import { blockBudget } from "../../../src/chain/TurnBudget.js"
import { makeFakeVm, signedTxn, syntheticGenesis } from "../fakeChain.js"

const BURST = 200
/** Validation's cost in the fake VM below. */
const VALIDATE_MS = 0.05
/**
 * The most admissions one turn may run under backpressure: its 0.5 ms budget (Mempool.ts) of
 * VALIDATE_MS each, plus the one task that may start just before the budget runs out, twice (a
 * turn's accounting may restart once within it: TurnBudget.ts).
 */
const BACKPRESSURED_MAX_PER_TURN = 2 * (0.5 / VALIDATE_MS + 1)

/** Admissions validated so far (the fake VM counts them). */
let validated = 0

/** The fake VM, its validation costing ~50 µs (a real prologue's order), so budgets are felt. */
const slowVm = () => {
  const vm = makeFakeVm()
  return {
    ...vm,
    validate: (...args: Parameters<typeof vm.validate>) => {
      validated++
      const until = performance.now() + VALIDATE_MS
      while (performance.now() < until) {}
      return vm.validate(...args)
    }
  }
}

/** Not Ed25519, so nothing goes to the thread pool first: admission is synchronous. */
const unsigned = (sender: number, seq: bigint): SignedTransaction => ({
  ...signedTxn(sender, seq),
  authenticator: { _tag: "MultiEd25519", publicKey: new Uint8Array(33), signature: new Uint8Array(68) }
})

const layer = (backpressureAt: number, blockActivityWindowMs = 100) =>
  Mempool.layer.pipe(
    Layer.provide(
      Layer.mergeAll(
        LedgerMemory.layer({ genesis: syntheticGenesis() }),
        Layer.succeed(ChainVm, slowVm()),
        mempoolConfigLayer(makeMempoolConfig({ backpressureAt, blockActivityWindowMs }))
      )
    )
  )

/**
 * Submits the burst at once; resolves to the most admissions a turn ran, the turns it took and what
 * the pool answered, in order. `producing`: a block is being made meanwhile (a slice of it, empty
 * here, runs every turn).
 */
const burst = (producing: boolean) =>
  Effect.gen(function* () {
    const mempool = yield* Mempool
    let turns = 0
    let done = false
    let mostPerTurn = 0
    let validatedAtTurn = validated
    const tick = () => {
      turns++
      mostPerTurn = Math.max(mostPerTurn, validated - validatedAtTurn)
      validatedAtTurn = validated
      if (producing) blockBudget.timed(() => undefined)
      if (!done) setImmediate(tick)
    }
    const txns = Array.from({ length: BURST }, (_, i) => unsigned(1 + (i % 20), BigInt(Math.floor(i / 20))))
    // A block already being made when the burst arrives.
    if (producing) blockBudget.timed(() => undefined)
    setImmediate(tick)
    const results = yield* Effect.forEach(
      txns,
      (t) => Effect.result(mempool.submit(t, Bcs.encode(signedTransactionCodec, t))),
      { concurrency: "unbounded" }
    )
    done = true
    mostPerTurn = Math.max(mostPerTurn, validated - validatedAtTurn)
    return { mostPerTurn, turns, results, pending: mempool.pending() }
  })

describe("admission backpressure", () => {
  it.live(
    "past backpressureAt, while a block is made, a burst takes more turns, every submission still accepted in order",
    () =>
      Effect.gen(function* () {
        const shallow = yield* Effect.provide(burst(true), layer(1_000_000))
        const deep = yield* Effect.provide(burst(true), layer(1, 60_000))
        // Nothing competing (no block being made, the last slice longer ago than the window): a deep
        // pool admits at full speed.
        yield* Effect.sleep("150 millis")
        const idle = yield* Effect.provide(burst(false), layer(1))
        for (const run of [shallow, deep, idle]) {
          assert.strictEqual(run.results.filter((r) => r._tag === "Failure").length, 0)
          assert.strictEqual(run.pending.length, BURST)
        }
        // Arrival order kept through the backpressure queue: the pool's arrival numbers follow the burst.
        const order = deep.pending.map(
          (e) => `${e.senderKey}/${e.replay._tag === "SequenceNumber" ? e.replay.sequenceNumber : ""}`
        )
        const sent = Array.from({ length: BURST }, (_, i) => unsigned(1 + (i % 20), BigInt(Math.floor(i / 20))))
        assert.deepStrictEqual(
          order,
          sent.map((t) => `${Buffer.from(t.rawTransaction.sender).toString("hex")}/${t.rawTransaction.sequenceNumber}`)
        )
        // ~10 ms of admissions: at most ~0.5 ms a turn under backpressure, up to 4 ms otherwise.
        const runs = `most admissions in a turn: deep ${deep.mostPerTurn} (${deep.turns} turns), shallow ${shallow.mostPerTurn} (${shallow.turns}), idle ${idle.mostPerTurn} (${idle.turns})`
        assert.isAtMost(deep.mostPerTurn, BACKPRESSURED_MAX_PER_TURN, runs)

        assert.isAbove(shallow.mostPerTurn, BACKPRESSURED_MAX_PER_TURN, runs)
        assert.isAbove(idle.mostPerTurn, BACKPRESSURED_MAX_PER_TURN, runs)
      })
  )
})
