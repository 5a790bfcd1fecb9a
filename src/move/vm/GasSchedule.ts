import { BcsReader, BcsWriter } from "../../bcs/index.js"
import { writeStructTag } from "../../domain/TypeTagCodec.js"
import { addressFromNumber } from "../../domain/AccountAddress.js"
import { Opcode } from "../binary/Opcode.js"
import { GasMeter, type GasParams } from "./GasMeter.js"
import type { StateView } from "./StateView.js"
import { VmError } from "./VmError.js"

/** The on-chain gas schedule as the VM prices with it: per-opcode costs and the few other parameters. */
export interface GasSchedule {
  readonly featureVersion: bigint
  readonly entries: ReadonlyMap<string, bigint>
  readonly instr: Float64Array
  readonly params: GasParams
}

const ONE = addressFromNumber(1)
const GAS_SCHEDULE_TAG = { address: ONE, module: "gas_schedule", name: "GasScheduleV2", typeArgs: [] }
const GAS_SCHEDULE_TAG_BYTES = (() => {
  const w = new BcsWriter(64)
  writeStructTag(w, GAS_SCHEDULE_TAG)
  return w.toBytes()
})()

/** Gas-schedule name of each opcode (`instr.<name>` or `instr.<name>.base`). */
const NAME_OVERRIDES: Record<string, string> = { Xor: "bit_xor", Shl: "bit_shl", Shr: "bit_shr" }
const snake = (s: string): string =>
  s
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z])([A-Z][a-z])/g, "$1_$2")
    .toLowerCase()

const buildInstr = (entries: ReadonlyMap<string, bigint>): Float64Array => {
  const table = new Float64Array(256)
  for (const [name, byte] of Object.entries(Opcode)) {
    if (typeof byte !== "number") continue
    const key = NAME_OVERRIDES[name] ?? snake(name)
    const v = entries.get(`instr.${key}`) ?? entries.get(`instr.${key}.base`) ?? 0n
    table[byte] = Number(v)
  }
  return table
}

const num = (entries: ReadonlyMap<string, bigint>, ...names: string[]): number => {
  for (const n of names) {
    const v = entries.get(n)
    if (v !== undefined) return Number(v)
  }
  return 0
}

/**
 * Base cost per native: `move_stdlib.<module>.<fn>.base`, `table.<fn>.base` or
 * `aptos_framework.<module>.<fn>.base` (some names drop an `_internal`/`_impl` suffix).
 */
const nativeCosts = (entries: ReadonlyMap<string, bigint>): Map<string, number> => {
  const out = new Map<string, number>()
  for (const [key, value] of entries) {
    if (!key.endsWith(".base")) continue
    const parts = key.split(".")
    if (parts.length !== 4 && !(parts[0] === "table" && parts.length === 3)) continue
    if (parts[0] === "table") out.set(`0x1::table::${parts[1]}`, Number(value))
    else if (parts[0] === "move_stdlib" || parts[0] === "aptos_framework") {
      const [, module, fn] = parts as [string, string, string]
      out.set(`0x1::${module}::${fn}`, Number(value))
      out.set(`0x1::${module}::${fn}_internal`, Number(value))
      out.set(`0x1::${module}::${fn}_impl`, Number(value))
    }
  }
  return out
}

/** Decodes `GasScheduleV2 { feature_version, entries: vector<{key: String, val: u64}> }`. */
export const decodeGasSchedule = (bytes: Uint8Array): GasSchedule => {
  const r = new BcsReader(bytes)
  const featureVersion = r.u64()
  const n = r.length(9)
  const entries = new Map<string, bigint>()
  for (let i = 0; i < n; i++) entries.set(r.string(), r.u64())
  r.expectEnd()
  const params: GasParams = {
    callBase: 0,
    callPerArg: num(entries, "instr.call.per_arg"),
    callPerLocal: num(entries, "instr.call.per_local"),
    callGenericPerTyArg: num(entries, "instr.call_generic.per_ty_arg"),
    readSlot: num(entries, "txn.storage_io_per_state_slot_read", "txn.load_data.base"),
    readByte: num(entries, "txn.storage_io_per_state_byte_read", "txn.load_data.per_byte"),
    nativeBase: num(entries, "aptos_framework.type_info.type_of.base", "move_stdlib.signer.borrow_address.base"),
    nativePerByte: num(entries, "move_stdlib.bcs.to_bytes.per_byte_serialized"),
    scalingFactor: num(entries, "txn.gas_unit_scaling_factor") || 1,
    memoryQuota: num(entries, "txn.memory_quota") || Number.POSITIVE_INFINITY,
    dependencyPerModule: featureVersion >= 15n ? num(entries, "txn.dependency_per_module") : 0,
    dependencyPerByte: featureVersion >= 15n ? num(entries, "txn.dependency_per_byte") : 0,
    sized: {
      copyLocPerUnit: num(entries, "instr.copy_loc.per_abs_val_unit"),
      readRefPerUnit: num(entries, "instr.read_ref.per_abs_val_unit"),
      eqPerUnit: num(entries, "instr.eq.per_abs_val_unit"),
      ldConstPerByte: num(entries, "instr.ld_const.per_byte"),
      packPerField: num(entries, "instr.pack.per_field"),
      vecPackPerElem: num(entries, "instr.vec_pack.per_elem"),
      vecUnpackPerElem: num(entries, "instr.vec_unpack.per_expected_elem"),
      abortMsgPerByte: num(entries, "instr.abort_msg.per_byte"),
      absValNode: num(entries, "misc.abs_val.u64") || 40
    },
    nativeCosts: nativeCosts(entries)
  }
  return { featureVersion, entries, instr: buildInstr(entries), params }
}

let last: { bytes: Uint8Array; schedule: GasSchedule } | undefined

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a === b) return true
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** The schedule stored at 0x1 in `view` (the last one decoded is reused); VM_STARTUP_FAILURE when absent. */
export const readGasSchedule = (view: StateView): GasSchedule => {
  const bytes = view.resource(ONE, GAS_SCHEDULE_TAG, GAS_SCHEDULE_TAG_BYTES)
  if (bytes === undefined) throw new VmError("VM_STARTUP_FAILURE", "gas schedule not found")
  if (last !== undefined && sameBytes(last.bytes, bytes)) return last.schedule
  let schedule: GasSchedule
  try {
    schedule = decodeGasSchedule(bytes)
  } catch (e) {
    throw new VmError("VM_STARTUP_FAILURE", `gas schedule unreadable: ${e instanceof Error ? e.message : String(e)}`)
  }
  last = { bytes, schedule }
  return schedule
}

/** A meter with `maxGas` external units of budget, priced by `schedule`. */
export const meterFor = (schedule: GasSchedule, maxGas: bigint): GasMeter =>
  new GasMeter(Number(maxGas) * schedule.params.scalingFactor, schedule.instr, schedule.params)
