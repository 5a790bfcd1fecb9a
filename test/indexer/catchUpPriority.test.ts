/**
 * The indexer's worker thread takes the chain's priority back while it is far behind (in versions,
 * or for long) and lowers it again once it has caught up (a bounded lag under a chain at full
 * speed); without the right to raise it, it stays lowered.
 */
import { describe, expect, it } from "vitest"
import { catchUpPriority } from "../../src/indexer/worker/catchUpPriority.js"

const policy = (allowRaise = true) => {
  const calls: number[] = []
  let clock = 0
  const onBehind = catchUpPriority({
    nice: 5,
    setNice: (n) => calls.push(n) > 0 && (allowRaise || n !== 0),
    now: () => clock
  })
  return { calls, onBehind, tick: (ms: number) => (clock += ms) }
}

describe("the indexer worker's priority", () => {
  it("rises past 500 versions behind, stays up until within 100, then lowers again", () => {
    const { calls, onBehind } = policy()
    for (const behind of [0n, 250n, 500n]) onBehind(behind)
    expect(calls).toEqual([])
    onBehind(501n)
    expect(calls).toEqual([0])
    for (const behind of [5_000n, 400n, 101n]) onBehind(behind)
    expect(calls).toEqual([0])
    onBehind(100n)
    expect(calls).toEqual([0, 5])
    onBehind(50n)
    onBehind(2_000n)
    expect(calls).toEqual([0, 5, 0])
  })

  it("rises when more than 100 versions behind for over 500 ms (a slow chain on a starved machine)", () => {
    const { calls, onBehind, tick } = policy()
    onBehind(50n)
    tick(300)
    onBehind(300n)
    tick(150)
    onBehind(300n)
    expect(calls).toEqual([])
    tick(100)
    onBehind(300n)
    expect(calls).toEqual([0])
    onBehind(20n)
    expect(calls).toEqual([0, 5])
    // Close again just now: the clock starts over.
    tick(400)
    onBehind(300n)
    expect(calls).toEqual([0, 5])
  })

  it("stays lowered when raising is not allowed (and tries again at the next look)", () => {
    const { calls, onBehind } = policy(false)
    onBehind(5_000n)
    onBehind(10n)
    onBehind(5_000n)
    expect(calls).toEqual([0, 0])
  })
})
