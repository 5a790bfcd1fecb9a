import * as Result from "effect/Result"
import { Bcs } from "../bcs/index.js"
import type { StateReader } from "../ledger/Ledger.js"
import { frameworkStruct, resourceKey } from "./stateKeys.js"

/** `0x1::gas_schedule::GasEntry { key: String, val: u64 }`. */
const gasEntry = Bcs.struct({ key: Bcs.string, val: Bcs.u64 })
/** `GasScheduleV2 { feature_version: u64, entries: vector<GasEntry> }`. */
const gasScheduleV2 = Bcs.struct({ featureVersion: Bcs.u64, entries: Bcs.vector(gasEntry, 2) })
/** Legacy `GasSchedule { entries: vector<GasEntry> }`. */
const gasScheduleV1 = Bcs.struct({ entries: Bcs.vector(gasEntry, 2) })

const GAS_SCHEDULE_V2 = frameworkStruct("gas_schedule", "GasScheduleV2")
const GAS_SCHEDULE = frameworkStruct("gas_schedule", "GasSchedule")
const GAS_SCHEDULE_V2_KEY = resourceKey(GAS_SCHEDULE_V2.address, GAS_SCHEDULE_V2)
const GAS_SCHEDULE_KEY = resourceKey(GAS_SCHEDULE.address, GAS_SCHEDULE)

/** The on-chain parameter holding the minimum gas unit price. */
export const MIN_PRICE_PER_GAS_UNIT = "txn.min_price_per_gas_unit"

const findEntry = (entries: ReadonlyArray<{ readonly key: string; readonly val: bigint }>): bigint | undefined =>
  entries.find((e) => e.key === MIN_PRICE_PER_GAS_UNIT)?.val

/**
 * The minimum gas unit price of the on-chain gas schedule at `state`: `GasScheduleV2` at 0x1, or the
 * legacy `GasSchedule` when V2 is absent, undecodable or lacks the entry (as the reference falls back).
 * `undefined` when neither gives it.
 */
export const minGasUnitPrice = (state: StateReader): bigint | undefined => {
  const v2 = state.get(GAS_SCHEDULE_V2_KEY)
  if (v2 !== undefined) {
    const decoded = Bcs.decode(gasScheduleV2, v2)
    if (Result.isSuccess(decoded)) {
      const price = findEntry(decoded.success.entries)
      if (price !== undefined) return price
    }
  }
  const v1 = state.get(GAS_SCHEDULE_KEY)
  if (v1 === undefined) return undefined
  const decoded = Bcs.decode(gasScheduleV1, v1)
  return Result.isSuccess(decoded) ? findEntry(decoded.success.entries) : undefined
}
