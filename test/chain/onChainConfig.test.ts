import fc from "fast-check"
import * as Result from "effect/Result"
import { describe, expect, it } from "vitest"
import { toHex } from "../../src/bcs/hex.js"
import {
  ConfigKeys,
  decodeBlockEndConfig,
  decodeBlockResource,
  decodeChainId,
  decodeConfiguration,
  decodeFirstValidator,
  decodeTimestamp,
  featureEnabled
} from "../../src/chain/onChainConfig.js"
import { decodeGenesisTransaction } from "../../src/domain/Genesis.js"
import { loadGenesisBytes } from "../support/genesis.js"

const genesis = decodeGenesisTransaction(loadGenesisBytes("devnet"))
if (Result.isFailure(genesis)) throw genesis.failure
const payload = genesis.success.payload
if (payload._tag !== "Direct") throw new Error("direct genesis expected")
const state = new Map<string, Uint8Array>()
for (const e of payload.changeSet.writeSet.entries) if ("data" in e.op) state.set(toHex(e.keyBytes), e.op.data)
const read = (key: Uint8Array) => state.get(toHex(key))

describe("onChainConfig (devnet genesis state)", () => {
  it("reads the epoch, the epoch interval, the clock and the chain id", () => {
    expect(decodeConfiguration(read(ConfigKeys.configuration))).toEqual({ epoch: 1n, lastReconfigurationTimeUsec: 0n })
    expect(decodeBlockResource(read(ConfigKeys.blockResource))).toEqual({ height: 0n, epochIntervalUsec: 600_000_000n })
    expect(decodeTimestamp(read(ConfigKeys.timestamp))).toBe(0n)
    expect(decodeChainId(read(ConfigKeys.chainId))).toBe(243)
  })

  it("reads the first active validator with its index", () => {
    const v = decodeFirstValidator(read(ConfigKeys.validatorSet))
    expect(v?.index).toBe(0n)
    expect(v?.address.length).toBe(32)
  })

  it("reads feature flags (devnet: 96 and 112 on, 104 off; §1.3)", () => {
    const f = read(ConfigKeys.features)
    expect(featureEnabled(f, 96)).toBe(true)
    expect(featureEnabled(f, 112)).toBe(true)
    expect(featureEnabled(f, 104)).toBe(false)
    expect(featureEnabled(f, 100_000)).toBe(false)
  })

  it("reads the execution config: V7, block limit outcome on chain, 90 octas burnt (§8.5)", () => {
    expect(decodeBlockEndConfig(read(ConfigKeys.executionConfig))).toEqual({ blockEpilogue: true, gasPriceToBurn: 90n })
  })

  it("answers undefined (never throws) for garbage", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        for (const f of [
          decodeConfiguration,
          decodeBlockResource,
          decodeTimestamp,
          decodeChainId,
          decodeFirstValidator,
          decodeBlockEndConfig
        ])
          f(bytes)
        featureEnabled(bytes, 5)
      })
    )
    expect(decodeConfiguration(undefined)).toBe(undefined)
    expect(decodeBlockEndConfig(new Uint8Array([1, 9]))).toBe(undefined)
  })
})
