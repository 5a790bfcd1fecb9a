/**
 * followLedger never fails and never holds an answer past its budget: a ledger whose history
 * cannot be read (a range that fails, or one that never answers, as a fork's source may) leaves
 * those tables unknown, and `learnedThrough` says how far the index got; over a readable ledger
 * (the devnet genesis) it learns the genesis tables.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { describe, expect, it, vi } from "vitest"
import { Ledger, type LedgerRewind, type LedgerService } from "../../../src/ledger/Ledger.js"
import { StorageError } from "../../../src/ledger/LedgerError.js"
import * as LedgerMemory from "../../../src/ledger/LedgerMemory.js"
import { Renderer } from "../../../src/node/Renderer.js"
import { followLedger } from "../../../src/node/tableInfo/followLedger.js"
import { loadGenesisBytes } from "../../support/genesis.js"

const withLedger = <A>(f: (ledger: LedgerService, renderer: Renderer["Service"]) => Effect.Effect<A>) =>
  Effect.runPromise(
    Effect.gen(function* () {
      return yield* f(yield* Ledger, yield* Renderer)
    }).pipe(
      Effect.provide(
        Renderer.layer.pipe(Layer.provideMerge(LedgerMemory.layer({ genesis: loadGenesisBytes("devnet") })))
      )
    )
  )

describe("followLedger", () => {
  it("learns the genesis tables from a readable ledger", async () => {
    const [size, learned] = await withLedger((ledger, renderer) => {
      const f = followLedger(ledger, renderer.modulesAt)
      return Effect.map(f.through(0n), () => [f.index.size, f.learnedThrough()] as const)
    })
    expect(size).toBeGreaterThan(0)
    expect(learned).toBe(0n)
  })

  it("a history read that fails is passed over: the answer comes, with those tables unknown", async () => {
    const [size, learned] = await withLedger((ledger, renderer) => {
      const failing: LedgerService = {
        ...ledger,
        transactionsFrom: () => Effect.fail(new StorageError({ message: "gone" }))
      }
      const f = followLedger(failing, renderer.modulesAt)
      return Effect.map(f.through(0n), () => [f.index.size, f.learnedThrough()] as const)
    })
    expect(size).toBe(0)
    expect(learned).toBe(0n)
  })

  // (Without the budget this test would never end.)
  it("a history read that never answers costs at most the budget; the next call goes on from there", async () => {
    const [size, learned] = await withLedger((ledger, renderer) => {
      const stuck: LedgerService = { ...ledger, transactionsFrom: () => Effect.never }
      const f = followLedger(stuck, renderer.modulesAt, { budget: "50 millis" })
      return Effect.map(f.through(0n), () => [f.index.size, f.learnedThrough()] as const)
    })
    expect(size).toBe(0)
    expect(learned).toBe(-1n)
  })

  it("firstVersion skips the history below it", async () => {
    const learned = await withLedger((ledger, renderer) => {
      const f = followLedger(ledger, renderer.modulesAt, { firstVersion: 1n })
      return Effect.map(f.through(0n), () => [f.index.size, f.learnedThrough()] as const)
    })
    expect(learned).toEqual([0, 0n])
  })

  it("learnNext learns only the next version, and a later catch-up does not learn it again or go back", async () => {
    const out = await withLedger((ledger, renderer) =>
      Effect.gen(function* () {
        const [genesis] = yield* Effect.orDie(ledger.transactionsFrom(0n, 1))
        const modules = renderer.modulesAt(yield* Effect.orDie(ledger.stateAt(0n)))
        const f = followLedger(ledger, renderer.modulesAt)
        const later = f.learnNext(1n, () => {
          throw new Error("not the next version")
        })
        const first = f.learnNext(0n, (index) => index.learn(modules, genesis!.writeSet))
        const again = f.learnNext(0n, () => {
          throw new Error("learned already")
        })
        const size = f.index.size
        yield* f.through(0n)
        const reference = followLedger(ledger, renderer.modulesAt)
        yield* reference.through(0n)
        return {
          later,
          first,
          again,
          size,
          after: f.index.size,
          learned: f.learnedThrough(),
          expected: reference.index.size
        }
      })
    )
    expect(out).toMatchObject({ later: false, first: true, again: false, learned: 0n })
    expect(out.size).toBeGreaterThan(0)
    expect(out.size).toBe(out.expected)
    expect(out.after).toBe(out.size)
  })

  it("a rewind of the ledger makes the index resolve its layouts again (TableInfoIndex.test.ts)", async () => {
    const calls = await withLedger((ledger, renderer) =>
      Effect.gen(function* () {
        let rewinds = 0
        const rewind = { rewinds: () => rewinds, rewoundTo: () => 0n } as unknown as LedgerRewind
        const f = followLedger({ ...ledger, rewind }, renderer.modulesAt)
        const forget = vi.spyOn(f.index, "forgetLayouts")
        yield* f.through(0n)
        const before = forget.mock.calls.length
        rewinds++
        yield* f.through(0n)
        return [before, forget.mock.calls.length]
      })
    )
    expect(calls).toEqual([0, 1])
  })
})
