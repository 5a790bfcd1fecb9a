/**
 * The gas meter's categories (execution, IO, storage fee), their caps and the shared budget, as
 * the reference's standard gas meter orders its checks.
 */
import { describe, expect, it } from "vitest"
import { GasMeter, ZERO_PARAMS } from "../../../src/move/vm/GasMeter.js"
import { capsOf, meterFor, readGasSchedule } from "../../../src/move/vm/GasSchedule.js"
import { VmError } from "../../../src/move/vm/VmError.js"
import { distModule, runWithNativeSyntax } from "../../support/nativeSyntax.js"
import { genesisState } from "./genesisState.js"

const params = { ...ZERO_PARAMS, scalingFactor: 1_000_000, readSlot: 100, readByte: 1, readPageSize: 4096 }
const meter = (limit: number, caps = { maxExecution: Infinity, maxIo: Infinity, maxStorageFee: Infinity }) =>
  new GasMeter(limit, new Float64Array(256), params, caps)

const statusOf = (f: () => void): string | undefined => {
  try {
    f()
    return undefined
  } catch (e) {
    if (e instanceof VmError) return e.status
    throw e
  }
}

describe("GasMeter", () => {
  it("keeps execution, IO and storage apart and all of them draw on one budget", () => {
    const g = meter(10_000_000)
    g.charge(1000)
    g.balance -= 500 // the interpreter's inline charge
    g.chargeIo(2000)
    g.charge(250)
    g.chargeStorageFee(3n, 100n) // 3 octas at 100 octas/unit = 30,000 internal units
    expect(g.executionUsed).toBe(1750)
    expect(g.ioUsed).toBe(2000)
    expect(g.storageFeeOctas).toBe(3)
    expect(g.storageGasUsed).toBe(30_000)
    expect(g.used).toBe(1750 + 2000 + 30_000)
    expect(g.remaining).toBe(10_000_000 - g.used)
  })

  it("a storage fee is ceil(octas × scaling / price)", () => {
    const g = meter(10_000_000)
    g.chargeStorageFee(1n, 3n)
    expect(g.storageGasUsed).toBe(333_334)
  })

  it("reads count whole 4 KiB pages", () => {
    const g = meter(1e12)
    g.chargeRead(1)
    expect(g.ioUsed).toBe(100 + 4096)
    g.chargeRead(0)
    expect(g.ioUsed).toBe(100 + 4096 + 100)
    g.chargeRead(4097)
    expect(g.ioUsed).toBe(100 + 4096 + 100 + 100 + 8192)
  })

  it("running out of budget is OUT_OF_GAS; the failing charge is not counted and nothing is left", () => {
    const g = meter(1000)
    g.charge(600)
    expect(statusOf(() => g.charge(500))).toBe("OUT_OF_GAS")
    expect(g.executionUsed).toBe(600)
    expect(g.remaining).toBe(0)
    expect(g.used).toBe(1000)
    expect(statusOf(() => g.charge(1))).toBe("OUT_OF_GAS")
  })

  it("a charge that is not a number (NaN, undefined) is an invariant violation and leaves the meter as it was", () => {
    const g = meter(1000)
    g.charge(100)
    g.chargeIo(50)
    for (const bad of [Number.NaN, undefined as unknown as number, -1]) {
      expect(statusOf(() => g.charge(bad))).toBe("UNKNOWN_INVARIANT_VIOLATION_ERROR")
      expect(statusOf(() => g.chargeIo(bad))).toBe("UNKNOWN_INVARIANT_VIOLATION_ERROR")
    }
    expect(g.executionUsed).toBe(100)
    expect(g.ioUsed).toBe(50)
    expect(g.remaining).toBe(850)
  })

  it("the execution cap is EXECUTION_LIMIT_REACHED, with the charge counted", () => {
    const g = meter(1_000_000, { maxExecution: 1000, maxIo: Infinity, maxStorageFee: Infinity })
    g.chargeIo(5000) // IO does not count against the execution cap
    g.charge(900)
    expect(statusOf(() => g.charge(200))).toBe("EXECUTION_LIMIT_REACHED")
    expect(g.executionUsed).toBe(1100)
    expect(g.used).toBe(6100)
  })

  it("the budget is checked before the execution cap (OUT_OF_GAS when both are passed)", () => {
    const g = meter(1000, { maxExecution: 900, maxIo: Infinity, maxStorageFee: Infinity })
    expect(statusOf(() => g.charge(1500))).toBe("OUT_OF_GAS")
  })

  it("the IO and storage caps", () => {
    const io = meter(1_000_000, { maxExecution: Infinity, maxIo: 1000, maxStorageFee: Infinity })
    io.chargeIo(800)
    expect(statusOf(() => io.chargeIo(300))).toBe("IO_LIMIT_REACHED")
    const st = meter(1e12, { maxExecution: Infinity, maxIo: Infinity, maxStorageFee: 10 })
    st.chargeStorageFee(6n, 100n)
    expect(statusOf(() => st.chargeStorageFee(6n, 100n))).toBe("STORAGE_LIMIT_REACHED")
    const poor = meter(50)
    expect(statusOf(() => poor.chargeIo(60))).toBe("OUT_OF_GAS")
    expect(poor.remaining).toBe(0)
  })

  it("an unmetered meter charges nothing and reports nothing used", () => {
    const g = GasMeter.unmetered()
    g.charge(1e9)
    g.chargeIo(1e9)
    g.chargeStorageFee(1n, 1n)
    expect(g.executionUsed).toBe(0)
    expect(g.ioUsed).toBe(0)
  })

  it("the devnet schedule's caps (and .gov variants) come from txn.max_*", () => {
    const schedule = readGasSchedule(genesisState("devnet").view)
    expect(capsOf(schedule, false)).toEqual({
      maxExecution: 9_200_000_000,
      maxIo: 10_000_000_000,
      maxStorageFee: 2_000_000_000
    })
    expect(capsOf(schedule, true).maxExecution).toBe(40_000_000_000)
    const g = meterFor(schedule, 2_000_000n, { caps: true })
    expect(g.caps.maxExecution).toBe(9_200_000_000)
    expect(meterFor(schedule, 10n).caps.maxExecution).toBe(Infinity)
  })

  it("keeps one hidden class in V8 whatever it is given and charged (large values, out of gas, unmetered)", () => {
    // A field V8 first saw a small integer in changes every meter's hidden class when a value past
    // 2^31 arrives, throwing away the optimized code built on the old one (GasMeter.ts, `DOUBLE`).
    // Checked with V8's native syntax in a child process (test/support/nativeSyntax.ts).
    const gasMeterJs = distModule("move/vm/GasMeter.js")
    const script = `
      const { GasMeter, ZERO_PARAMS } = await import(${JSON.stringify(gasMeterJs)})
      const params = { ...ZERO_PARAMS, scalingFactor: 1_000_000, readSlot: 100, readByte: 1, readPageSize: 4096, memoryQuota: 10_000_000 }
      const caps = { maxExecution: 2 ** 40, maxIo: 2 ** 40, maxStorageFee: 2 ** 40 }
      const kinds = [
        () => new GasMeter(1_000, new Float64Array(256), params, caps),
        () => new GasMeter(2_000_000 * 1_000_000, new Float64Array(256), params, caps),
        () => GasMeter.unmetered()
      ]
      const first = kinds[0]()
      let differ = 0
      for (const make of kinds) {
        const g = make()
        if (!%HaveSameMap(g, first)) differ++
        // Each category past 2^31 internal units, then past the budget (each may fail: out of gas).
        const charges = [() => g.charge(2 ** 33), () => g.chargeIo(2 ** 33), () => g.chargeStorageFee(10_000n, 1n),
          () => g.chargeRead(2 ** 33), () => g.charge(2 ** 50), () => g.useMemory(2 ** 33), () => g.releaseMemory(2 ** 34)]
        for (const charge of charges) try { charge() } catch {}
      }
      for (const make of kinds) if (!%HaveSameMap(make(), first)) differ++
      console.log(JSON.stringify({ differ }))
    `
    const run = runWithNativeSyntax(script)
    expect(run.stderr).toBe("")
    expect(run.output).toEqual({ differ: 0 })
  })
})
