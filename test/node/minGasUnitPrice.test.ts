import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import { Bcs, toHex } from "../../src/bcs/index.js"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import type { StateReader } from "../../src/ledger/Ledger.js"
import { MIN_PRICE_PER_GAS_UNIT, minGasUnitPrice } from "../../src/node/minGasUnitPrice.js"
import { coinBalance, primaryStoreBalance } from "../../src/node/readBalance.js"
import { frameworkStruct, resourceKey } from "../../src/node/stateKeys.js"
import { APTOS_COIN } from "./fixtures.js"

/** A state of a few keys, for the pure readers. */
const stateOf = (entries: ReadonlyArray<readonly [Uint8Array, Uint8Array]>): StateReader => {
  const m = new Map(entries.map(([k, v]) => [toHex(k), v]))
  return {
    version: 0n,
    get: (k) => m.get(toHex(k)),
    getVersioned: (k) => {
      const value = m.get(toHex(k))
      return value === undefined ? undefined : { value, version: 0n }
    }
  }
}

const entries = Bcs.vector(Bcs.struct({ key: Bcs.string, val: Bcs.u64 }))
const v2 = (list: ReadonlyArray<{ key: string; val: bigint }>) =>
  Bcs.encode(Bcs.struct({ featureVersion: Bcs.u64, entries }), { featureVersion: 12n, entries: list })
const v1 = (list: ReadonlyArray<{ key: string; val: bigint }>) => Bcs.encode(Bcs.struct({ entries }), { entries: list })
const ONE = addressFromNumber(1)
const V2_KEY = resourceKey(ONE, frameworkStruct("gas_schedule", "GasScheduleV2"))
const V1_KEY = resourceKey(ONE, frameworkStruct("gas_schedule", "GasSchedule"))

describe("minGasUnitPrice", () => {
  it("reads txn.min_price_per_gas_unit from GasScheduleV2", () => {
    const state = stateOf([
      [
        V2_KEY,
        v2([
          { key: "instr.nop", val: 1n },
          { key: MIN_PRICE_PER_GAS_UNIT, val: 100n }
        ])
      ]
    ])
    assert.strictEqual(minGasUnitPrice(state), 100n)
  })

  it("falls back to the legacy GasSchedule when V2 is absent, undecodable or lacks the entry", () => {
    const legacy = v1([{ key: MIN_PRICE_PER_GAS_UNIT, val: 42n }])
    assert.strictEqual(minGasUnitPrice(stateOf([[V1_KEY, legacy]])), 42n)
    assert.strictEqual(
      minGasUnitPrice(
        stateOf([
          [V2_KEY, Uint8Array.of(1, 2)],
          [V1_KEY, legacy]
        ])
      ),
      42n
    )
    assert.strictEqual(
      minGasUnitPrice(
        stateOf([
          [V2_KEY, v2([{ key: "instr.nop", val: 1n }])],
          [V1_KEY, legacy]
        ])
      ),
      42n
    )
  })

  it("is undefined without a usable schedule", () => {
    assert.isUndefined(minGasUnitPrice(stateOf([])))
    assert.isUndefined(minGasUnitPrice(stateOf([[V1_KEY, v1([])]])))
  })

  it("never throws on garbage schedules", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.uint8Array({ maxLength: 64 }), (a, b) => {
        const p = minGasUnitPrice(
          stateOf([
            [V2_KEY, a],
            [V1_KEY, b]
          ])
        )
        return p === undefined || typeof p === "bigint"
      })
    )
  })
})

describe("balance readers on hostile stored bytes", () => {
  it("never throw: every answer is a bigint or a typed decode error", () => {
    const owner = addressFromNumber(0xa11ce)
    const metadata = addressFromNumber(0xa)
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 96 }), (bytes) => {
        // The same garbage under every key either reader may look at.
        const state: StateReader = {
          version: 0n,
          get: () => bytes,
          getVersioned: () => ({ value: bytes, version: 0n })
        }
        for (const answer of [primaryStoreBalance(state, owner, metadata), coinBalance(state, owner, APTOS_COIN)])
          if (typeof answer !== "bigint" && answer._tag !== "BalanceDecodeError") return false
        return true
      })
    )
  })
})
