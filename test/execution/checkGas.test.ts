import { describe, expect, it } from "vitest"
import { checkGas, type GasCheckInput } from "../../src/execution/checkGas.js"
import { transactionGasParams } from "../../src/execution/TransactionGasParams.js"
import { readGasSchedule } from "../../src/move/vm/GasSchedule.js"
import { genesisState } from "../move/vm/genesisState.js"

const r = transactionGasParams(readGasSchedule(genesisState("devnet").view))
if (r._tag !== "Ok") throw new Error("schedule")
const p = r.params

const ok: GasCheckInput = {
  transactionSize: 250n,
  maxGasAmount: 2_000n,
  gasUnitPrice: 100n,
  isKeyless: false,
  createsAccount: false,
  defaultAccountResource: true,
  newAccountsDefaultToFaStore: true
}

describe("checkGas", () => {
  it("accepts a transaction within every bound", () => {
    expect(checkGas(p, ok)).toBeUndefined()
  })

  it("checks size, then max gas bound, then intrinsic cost, then price, in the reference's order", () => {
    expect(checkGas(p, { ...ok, transactionSize: 65_537n, maxGasAmount: 1n, gasUnitPrice: 0n })).toBe(
      "EXCEEDED_MAX_TRANSACTION_SIZE"
    )
    expect(checkGas(p, { ...ok, maxGasAmount: 20_000_001n, gasUnitPrice: 0n })).toBe(
      "MAX_GAS_UNITS_EXCEEDS_MAX_GAS_UNITS_BOUND"
    )
    // 27.6 internal million units = 27.6 external units, rounded up to 28.
    expect(checkGas(p, { ...ok, maxGasAmount: 27n, gasUnitPrice: 0n })).toBe(
      "MAX_GAS_UNITS_BELOW_MIN_TRANSACTION_GAS_UNITS"
    )
    expect(checkGas(p, { ...ok, maxGasAmount: 28n })).toBeUndefined()
    expect(checkGas(p, { ...ok, gasUnitPrice: 99n })).toBe("GAS_UNIT_PRICE_BELOW_MIN_BOUND")
    expect(checkGas(p, { ...ok, gasUnitPrice: 10_000_000_001n })).toBe("GAS_UNIT_PRICE_ABOVE_MAX_BOUND")
  })

  it("keyless signers pay the keyless base on top of the intrinsic cost", () => {
    expect(checkGas(p, { ...ok, maxGasAmount: 28n, isKeyless: true })).toBe(
      "MAX_GAS_UNITS_BELOW_MIN_TRANSACTION_GAS_UNITS"
    )
    expect(checkGas(p, { ...ok, maxGasAmount: 28n + 320n, isKeyless: true })).toBeUndefined()
  })

  it("a lazily created account must be affordable: price × max gas ≥ 10 × price + one slot of 300 bytes", () => {
    // 100 × 10 + (400,000 + 300 × 400) = 521,000 octas → 5,210 units at price 100.
    expect(checkGas(p, { ...ok, createsAccount: true, maxGasAmount: 5_209n })).toBe(
      "MAX_GAS_UNITS_BELOW_MIN_TRANSACTION_GAS_UNITS"
    )
    expect(checkGas(p, { ...ok, createsAccount: true, maxGasAmount: 5_210n })).toBeUndefined()
    expect(checkGas(p, { ...ok, createsAccount: true, maxGasAmount: 5_210n, newAccountsDefaultToFaStore: false })).toBe(
      "MAX_GAS_UNITS_BELOW_MIN_TRANSACTION_GAS_UNITS"
    )
  })
})
