import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { MiningSwitch, miningModeProblem, resolveMiningRequest } from "../../src/chain/controls/MiningSwitch.js"
import { MiningMode } from "../../src/chain/MiningMode.js"

describe("MiningSwitch", () => {
  it("instant mining asked for without settings is the chain's own: a still chain is still again", () => {
    const still = new MiningSwitch(MiningMode.still(5))
    assert.deepStrictEqual(resolveMiningRequest({ _tag: "Instant" }, still.instantSettings), MiningMode.still(5))
    const started = new MiningSwitch(MiningMode.instant(20, 500))
    assert.deepStrictEqual(
      resolveMiningRequest({ _tag: "Instant", idleBlockMs: null }, started.instantSettings),
      MiningMode.still(20)
    )
    assert.deepStrictEqual(
      resolveMiningRequest({ _tag: "Instant", delayMs: 0 }, started.instantSettings),
      MiningMode.instant(0, 500)
    )
    // A chain started mined by hand or at an interval: the defaults.
    assert.deepStrictEqual(new MiningSwitch(MiningMode.manual).instantSettings, MiningMode.instant())
    assert.deepStrictEqual(
      resolveMiningRequest({ _tag: "Interval", intervalMs: 7 }, started.instantSettings),
      MiningMode.interval(7)
    )
  })

  it("refuses modes outside the controls' bounds", () => {
    assert.strictEqual(miningModeProblem(MiningMode.interval(1)), undefined)
    assert.strictEqual(miningModeProblem(MiningMode.still(0)), undefined)
    assert.ok(miningModeProblem(MiningMode.interval(0))?.includes("interval_ms"))
    assert.ok(miningModeProblem(MiningMode.interval(1.5))?.includes("interval_ms"))
    assert.ok(miningModeProblem(MiningMode.instant(-1))?.includes("delay_ms"))
    assert.ok(miningModeProblem(MiningMode.instant(20, 0))?.includes("idle_block_ms"))
  })

  it.effect("a change wakes the waits taken before it, and only those", () =>
    Effect.gen(function* () {
      const s = new MiningSwitch(MiningMode.instant())
      const before = yield* Effect.forkChild(s.changed)
      yield* Effect.yieldNow
      s.set(MiningMode.manual)
      yield* Fiber.join(before)
      assert.deepStrictEqual(s.current, MiningMode.manual)
      const after = yield* Effect.forkChild(s.changed)
      yield* Effect.yieldNow
      assert.strictEqual(after.pollUnsafe(), undefined)
      s.set(MiningMode.interval(10))
      yield* Fiber.join(after)
      assert.deepStrictEqual(s.current, MiningMode.interval(10))
    })
  )
})
