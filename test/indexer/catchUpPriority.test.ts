/**
 * The indexer's worker thread takes the chain's priority back while it is far behind and lowers it
 * again once it has caught up (a bounded lag under a chain at full speed); without the right to
 * raise it, it stays lowered.
 */
import { describe, expect, it } from "vitest"
import { catchUpPriority } from "../../src/indexer/worker/catchUpPriority.js"

describe("the indexer worker's priority", () => {
  it("rises past the catch-up lag, stays up until within the relax lag, then lowers again", () => {
    const calls: number[] = []
    const onBehind = catchUpPriority({ nice: 5, setNice: (n) => calls.push(n) > 0 })
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

  it("stays lowered when raising is not allowed (and tries again at the next look)", () => {
    const calls: number[] = []
    const onBehind = catchUpPriority({ nice: 5, setNice: (n) => calls.push(n) > 0 && n !== 0 })
    onBehind(5_000n)
    onBehind(10n)
    onBehind(5_000n)
    expect(calls).toEqual([0, 0])
  })
})
