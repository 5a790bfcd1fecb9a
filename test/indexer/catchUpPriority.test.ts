/**
 * The indexer's worker thread takes the chain's priority back while it is far behind (in versions,
 * or in time) and lowers it again once it has caught up (a bounded lag under a chain at full
 * speed); without the right to raise it, it stays lowered.
 */
import { describe, expect, it } from "vitest"
import { catchUpPriority, DEFAULT_CATCH_UP_BEHIND } from "../../src/indexer/worker/catchUpPriority.js"

const policy = (allowRaise = true) => {
  const calls: number[] = []
  let clock = 0
  const onLook = catchUpPriority({
    nice: 5,
    setNice: (n) => calls.push(n) > 0 && (allowRaise || n !== 0),
    now: () => clock
  })
  return { calls, onLook, tick: (ms: number) => (clock += ms) }
}

describe("the indexer worker's priority", () => {
  it("rises past DEFAULT_CATCH_UP_BEHIND versions behind, stays up until within 100, then lowers again", () => {
    const { calls, onLook } = policy()
    const behind = DEFAULT_CATCH_UP_BEHIND
    for (const [ledger, indexed] of [
      [1_000n, 1_000n],
      [1_000n + behind / 2n, 1_000n],
      [1_000n + behind, 1_000n]
    ] as const)
      onLook(ledger, indexed)
    expect(calls).toEqual([])
    onLook(1_001n + behind, 1_000n)
    expect(calls).toEqual([0])
    onLook(6_000n, 1_000n)
    onLook(6_000n, 5_899n)
    expect(calls).toEqual([0])
    onLook(6_000n, 5_900n)
    expect(calls).toEqual([0, 5])
    onLook(6_000n, 6_000n)
    onLook(9_000n, 6_000n)
    expect(calls).toEqual([0, 5, 0])
  })

  it("rises when the index has not reached the version the ledger had 500 ms ago", () => {
    const { calls, onLook, tick } = policy()
    onLook(300n, 0n)
    tick(300)
    onLook(600n, 300n) // 300 behind, but it reached what the ledger had 300 ms ago
    tick(250)
    onLook(700n, 450n) // 550 ms after the ledger was at 300: the index reached it
    expect(calls).toEqual([])
    tick(300)
    onLook(800n, 550n) // the ledger had 600 more than 500 ms ago; the index is at 550
    expect(calls).toEqual([0])
    onLook(800n, 800n)
    expect(calls).toEqual([0, 5])
  })

  it("a block of a few hundred versions appearing at once, indexed in time, does not raise it", () => {
    const { calls, onLook, tick } = policy()
    let ledger = 0n
    for (let i = 0; i < 20; i++) {
      ledger += 300n
      onLook(ledger, ledger - 300n)
      tick(200)
    }
    expect(calls).toEqual([])
  })

  it("stays lowered when raising is not allowed (and tries again at the next look)", () => {
    const { calls, onLook } = policy(false)
    onLook(5_000n, 0n)
    onLook(5_000n, 4_990n)
    onLook(10_000n, 4_990n)
    expect(calls).toEqual([0, 0])
  })
})
