import { describe, expect, it } from "vitest"
import { readGasSchedule } from "../../src/move/vm/GasSchedule.js"
import {
  decodeTransactionGasParams,
  intrinsicGas,
  transactionGasParams
} from "../../src/execution/TransactionGasParams.js"
import { genesisState } from "../move/vm/genesisState.js"

describe("TransactionGasParams", () => {
  const schedule = readGasSchedule(genesisState("devnet").view)
  const r = transactionGasParams(schedule)
  if (r._tag !== "Ok") throw new Error(r.entry)
  const p = r.params

  it("decodes the devnet schedule's txn.* entries (values of move-binary-format-and-vm.md §5)", () => {
    expect(p.featureVersion).toBe(54n)
    expect(p.minTransactionGasUnits).toBe(27_600_000n)
    expect(p.largeTransactionCutoff).toBe(600n)
    expect(p.intrinsicGasPerByte).toBe(11_580n)
    expect(p.maximumNumberOfGasUnits).toBe(20_000_000n)
    expect(p.minPricePerGasUnit).toBe(100n)
    expect(p.maxPricePerGasUnit).toBe(10_000_000_000n)
    expect(p.maxTransactionSizeInBytes).toBe(65_536n)
    expect(p.gasUnitScalingFactor).toBe(1_000_000n)
    expect(p.storageIoPerStateSlotWrite).toBe(895_680n)
    expect(p.storageIoPerStateByteWrite).toBe(890n)
    expect(p.storageFeePerStateSlot).toBe(400_000n)
    expect(p.storageFeePerStateByte).toBe(400n)
    expect(p.maxStorageFee).toBe(2_000_000_000n)
    expect(p.maxAaGas).toBe(600n)
  })

  it("is decoded once per schedule object", () => {
    expect(transactionGasParams(schedule)).toBe(r)
  })

  it("names the first required entry a schedule lacks", () => {
    const entries = new Map(schedule.entries)
    entries.delete("txn.intrinsic_gas_per_byte")
    expect(decodeTransactionGasParams(entries, 54n)).toEqual({ _tag: "Missing", entry: "txn.intrinsic_gas_per_byte" })
  })

  it("intrinsic gas grows past the large-transaction cutoff only", () => {
    expect(intrinsicGas(p, 200n)).toBe(27_600_000n)
    expect(intrinsicGas(p, 600n)).toBe(27_600_000n)
    expect(intrinsicGas(p, 700n)).toBe(27_600_000n + 100n * 11_580n)
  })
})
