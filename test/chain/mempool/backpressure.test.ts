/**
 * Admission's backpressure (Mempool.ts, `backpressureAt`): past that many pooled transactions, while
 * a block is being made, a burst of submissions is admitted over more event-loop turns (a smaller
 * budget per turn, so block production gets the turns), every one still accepted and in arrival
 * order — never refused for it; with no block being made, at full speed. Measured in turns against
 * the same burst into a pool below its threshold, not in time.
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

/** The fake VM, its validation costing ~50 µs (a real prologue's order), so budgets are felt. */
const slowVm = () => {
  const vm = makeFakeVm()
  return {
    ...vm,
    validate: (...args: Parameters<typeof vm.validate>) => {
      const until = performance.now() + 0.05
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

const layer = (backpressureAt: number) =>
  Mempool.layer.pipe(
    Layer.provide(
      Layer.mergeAll(
        LedgerMemory.layer({ genesis: syntheticGenesis() }),
        Layer.succeed(ChainVm, slowVm()),
        mempoolConfigLayer(makeMempoolConfig({ backpressureAt }))
      )
    )
  )

/**
 * Submits the burst at once; resolves to the turns it took and what the pool answered, in order.
 * `producing`: a block is being made meanwhile (a slice of it, empty here, runs every turn).
 */
const burst = (producing: boolean) =>
  Effect.gen(function* () {
    const mempool = yield* Mempool
    let turns = 0
    let done = false
    const tick = () => {
      turns++
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
    return { turns, results, pending: mempool.pending() }
  })

describe("admission backpressure", () => {
  it.live(
    "past backpressureAt, while a block is made, a burst takes more turns, every submission still accepted in order",
    () =>
      Effect.gen(function* () {
        const shallow = yield* Effect.provide(burst(true), layer(1_000_000))
        const deep = yield* Effect.provide(burst(true), layer(1))
        // Nothing competing (no block being made): a deep pool admits at full speed.
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
        // ~10 ms of admissions: a few turns at 4 ms per turn, many more at 0.5 ms.
        assert.isAbove(deep.turns, 2 * shallow.turns, `deep ${deep.turns} turns, shallow ${shallow.turns}`)
        assert.isAbove(deep.turns, 2 * idle.turns, `deep ${deep.turns} turns, idle ${idle.turns}`)
      })
  )
})
