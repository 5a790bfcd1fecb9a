import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { GasEstimationConfig } from "../../../src/domain/gasEstimate.js"
import { defaultGasEstimationConfig } from "../../../src/domain/gasEstimate.js"
import { gasEstimationFromWire, gasEstimationToWire } from "../../../src/http/front/protocol.js"

const u64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n })
const count = fc.integer({ min: 1, max: 10_000 })

const config: fc.Arbitrary<GasEstimationConfig> = fc.record({
  enabled: fc.boolean(),
  fullBlockTxns: count,
  lowBlockHistory: count,
  marketBlockHistory: count,
  aggressiveBlockHistory: count,
  cacheExpirationMs: fc.integer({ min: 0, max: 1_000_000 }),
  incorporateReorderingEffects: fc.boolean(),
  staticOverride: fc.option(fc.record({ low: u64, market: u64, aggressive: u64 }), { nil: undefined }),
  buckets: fc.array(u64, { maxLength: 12 })
})

describe("the front's messages", () => {
  it("carry the node's gas estimation settings through JSON unchanged (bigints as text)", () => {
    expect(gasEstimationFromWire(JSON.parse(JSON.stringify(gasEstimationToWire(defaultGasEstimationConfig))))).toEqual(
      defaultGasEstimationConfig
    )
    fc.assert(
      fc.property(config, (c) => {
        expect(gasEstimationFromWire(JSON.parse(JSON.stringify(gasEstimationToWire(c))))).toEqual(c)
      }),
      { numRuns: 300 }
    )
  })
})
