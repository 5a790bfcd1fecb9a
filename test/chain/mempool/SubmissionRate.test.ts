/**
 * `SubmissionRate`: submissions per second in one-second windows, the larger of the current
 * window's count and the whole window before it — so a burst counts at once, and a window left
 * idle (or more than one second old) does not.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { SubmissionRate } from "../../../src/chain/mempool/SubmissionRate.js"

describe("SubmissionRate", () => {
  it("counts a burst at once and keeps the last whole second while the next one starts", () => {
    const rate = new SubmissionRate()
    let r = 0
    for (let i = 0; i < 150; i++) r = rate.tick(10 + i)
    expect(r).toBe(150)
    // The next window: its first submission still sees the 150 before it.
    expect(rate.tick(1_100)).toBe(150)
  })

  it("forgets a burst once a whole window passed without submissions", () => {
    const rate = new SubmissionRate()
    for (let i = 0; i < 150; i++) rate.tick(10 + i)
    expect(rate.tick(2_500)).toBe(1)
  })

  it("a steady 100 a second reads 100 or 101, never less, at any window's start", () => {
    const rate = new SubmissionRate()
    const seen: number[] = []
    for (let i = 0; i < 1_000; i++) seen.push(rate.tick(i * 10))
    expect(Math.min(...seen.slice(100))).toBeGreaterThanOrEqual(100)
    expect(Math.max(...seen)).toBeLessThanOrEqual(101)
  })

  it("reads at least half the last second's submissions and none older than three seconds", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1_500 }), { minLength: 1, maxLength: 400 }), (gaps) => {
        const rate = new SubmissionRate()
        const times: number[] = []
        let now = 0
        for (const gap of gaps) {
          now += gap
          times.push(now)
          const r = rate.tick(now)
          const within = (ms: number) => times.filter((t) => t > now - ms).length
          // The last second's submissions are in the current window or the one right before it
          // (which counts while it began less than two seconds before the current one): the
          // larger of the two holds at least half of them. The current window began within the
          // last second, the one before it within the three before now.
          expect(r).toBeGreaterThanOrEqual(Math.ceil(within(1_000) / 2))
          expect(r).toBeLessThanOrEqual(within(3_000))
        }
      })
    )
  })
})
