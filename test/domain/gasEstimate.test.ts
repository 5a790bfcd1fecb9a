import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  defaultBroadcastBuckets,
  defaultEstimate,
  defaultGasEstimationConfig,
  estimateFromBlockPrices,
  nextBucket
} from "../../src/domain/gasEstimate.js"

const maxOf = (a: bigint, b: bigint): bigint => (a < b ? b : a)
const price = fc.bigInt({ min: 0n, max: 2_000_000n })

describe("gas estimate arithmetic", () => {
  it("nextBucket is the first bucket strictly above, else the price", () => {
    expect(nextBucket(100n)).toBe(150n)
    expect(nextBucket(150n)).toBe(300n)
    expect(nextBucket(0n)).toBe(150n)
    expect(nextBucket(1_000_000n)).toBe(1_000_000n)
    expect(nextBucket(5_000_000n)).toBe(5_000_000n)
    fc.assert(
      fc.property(price, (p) => {
        expect(nextBucket(p) >= p).toBe(true)
      })
    )
  })

  it("the default estimate matches the reference (mainnet minimum 100 → 100/100/150)", () => {
    expect(defaultEstimate(100n)).toEqual({ low: 100n, market: 100n, aggressive: 150n })
    expect(estimateFromBlockPrices([])).toBeUndefined()
  })

  it("reproduces the ten-full-blocks golden (150/150/300)", () => {
    expect(estimateFromBlockPrices(Array(10).fill(150n))).toEqual({ low: 150n, market: 150n, aggressive: 300n })
  })

  it("windows: low over 10, market = upper median over 30, aggressive over all", () => {
    // Newest first: the newest 10 blocks are cheap, older ones expensive.
    const prices = [...Array(10).fill(100n), ...Array(20).fill(1000n), ...Array(90).fill(5000n)]
    const e = estimateFromBlockPrices(prices, defaultGasEstimationConfig)!
    expect(e.low).toBe(100n)
    expect(e.market).toBe(1000n)
    expect(e.aggressive).toBe(nextBucket(5000n, defaultBroadcastBuckets))
  })

  it("low ≤ market ≤ aggressive, all within the observed range or the next bucket", () => {
    fc.assert(
      fc.property(fc.array(price, { minLength: 1, maxLength: 200 }), (prices) => {
        const e = estimateFromBlockPrices(prices)!
        expect(e.low <= e.market).toBe(true)
        expect(e.market <= e.aggressive).toBe(true)
        const max = prices.reduce(maxOf)
        expect(e.market <= max).toBe(true)
        expect(e.aggressive <= nextBucket(max)).toBe(true)
        expect(prices.slice(0, 10).includes(e.low)).toBe(true)
      })
    )
  })
})
