import { BcsReader, BcsWriter, equalBytes } from "../../bcs/index.js"
import { addressFromNumber } from "../../domain/AccountAddress.js"
import { writeStructTag } from "../../domain/TypeTagCodec.js"
import { Opcode } from "../binary/Opcode.js"
import { type GasCaps, GasMeter, type GasParams, NO_CAPS } from "./GasMeter.js"
import { SELF_CHARGING_NATIVES } from "./natives/selfCharging.js"
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
 * Natives whose base cost is under another name than `<area>.<module>.<fn>.base` (or that have
 * none: `bcs::to_bytes` charges per byte only). The native adds its size-dependent terms itself
 * (`chargeParam`), as the reference's natives do.
 */
const NATIVE_BASE: Record<string, string | null> = {
  "0x1::bcs::to_bytes": null,
  "0x1::string::internal_check_utf8": "move_stdlib.string.check_utf8.base",
  "0x1::string::internal_is_char_boundary": "move_stdlib.string.is_char_boundary.base",
  "0x1::string::internal_sub_string": "move_stdlib.string.sub_string.base",
  "0x1::string::internal_index_of": "move_stdlib.string.index_of.base",
  "0x1::create_signer::create_signer": "aptos_framework.account.create_signer.base",
  "0x1::aptos_hash::sip_hash": "aptos_framework.hash.sip_hash.base",
  "0x1::aptos_hash::keccak256": "aptos_framework.hash.keccak256.base",
  "0x1::aptos_hash::sha2_512_internal": "aptos_framework.hash.sha2_512.base",
  "0x1::aptos_hash::sha3_512_internal": "aptos_framework.hash.sha3_512.base",
  "0x1::aptos_hash::ripemd160_internal": "aptos_framework.hash.ripemd160.base",
  "0x1::aptos_hash::blake2b_256_internal": "aptos_framework.hash.blake2b_256.base",
  "0x1::dispatchable_fungible_asset::dispatchable_withdraw":
    "aptos_framework.dispatchable_fungible_asset.dispatch.base",
  "0x1::dispatchable_fungible_asset::dispatchable_deposit": "aptos_framework.dispatchable_fungible_asset.dispatch.base",
  "0x1::dispatchable_fungible_asset::dispatchable_derived_balance":
    "aptos_framework.dispatchable_fungible_asset.dispatch.base",
  "0x1::dispatchable_fungible_asset::dispatchable_derived_supply":
    "aptos_framework.dispatchable_fungible_asset.dispatch.base",
  "0x1::account_abstraction::dispatchable_authenticate": "aptos_framework.dispatchable_authenticate.dispatch.base",
  "0x1::util::from_bytes": "aptos_framework.util.from_bytes.base",
  "0x1::from_bcs::from_bytes": "aptos_framework.util.from_bytes.base",
  "0x1::transaction_context::gas_payer_internal": "aptos_framework.transaction_context.fee_payer.base",
  "0x1::code::request_publish": "aptos_framework.code.request_publish.base",
  "0x1::code::request_publish_with_allowed_deps": "aptos_framework.code.request_publish.base",
  "0x1::event::write_module_event_to_store": "aptos_framework.event.write_to_event_store.base",
  "0x1::state_storage::get_state_storage_usage_only_at_epoch_beginning": "aptos_framework.state_storage.get_usage.base",
  "0x1::aggregator_v2::create_unbounded_aggregator": "aptos_framework.aggregator_v2.create_aggregator.base",
  "0x1::aggregator_v2::create_derived_string": "aptos_framework.aggregator_v2.create_snapshot.base",
  "0x1::aggregator_v2::derive_string_concat": "aptos_framework.aggregator_v2.string_concat.base",
  "0x1::aggregator_v2::read_derived_string": "aptos_framework.aggregator_v2.read_snapshot.base",
  "0x1::object::create_user_derived_object_address_impl": "aptos_framework.object.user_derived_address.base",
  "0x1::string_utils::native_format": "aptos_framework.string_utils.format.base",
  "0x1::string_utils::native_format_list": "aptos_framework.string_utils.format.base",
  "0x1::randomness::fetch_and_increment_txn_counter": "aptos_framework.randomness.fetch_and_inc_counter",
  "0x1::randomness::is_unbiasable": null,
  "0x1::reflect::native_resolve": "aptos_framework.reflect.resolve_base",
  "0x1::storage_slot::borrow_storage_slot_resource": "aptos_framework.storage_slot.borrow.base",
  "0x1::storage_slot::borrow_storage_slot_resource_mut": "aptos_framework.storage_slot.borrow_mut.base",
  "0x1::consensus_config::validator_txn_enabled_internal": null,
  "0x1::debug::native_print": null,
  "0x1::debug::native_stack_trace": null
}

/**
 * Base cost per native: the explicit names above, else `move_stdlib.<module>.<fn>.base`,
 * `table.<fn>.base` or `aptos_framework.<module>.<fn>.base` (some names drop an
 * `_internal`/`_impl` suffix). Natives named nowhere pay the flat default.
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
  for (const [native, key] of Object.entries(NATIVE_BASE))
    out.set(native, key === null ? 0 : Number(entries.get(key) ?? 0n))
  // These natives charge the reference's formula themselves: no flat per-call charge on top.
  for (const name of SELF_CHARGING_NATIVES) out.set(name, 0)
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
    readPageSize: featureVersion >= 12n ? 4096 : 0,
    costs: new Map([...entries].map(([k, v]) => [k, Number(v)])),
    nativeCosts: nativeCosts(entries)
  }
  return { featureVersion, entries, instr: buildInstr(entries), params }
}

let last: { bytes: Uint8Array; schedule: GasSchedule } | undefined

/** The schedule stored at 0x1 in `view` (the last one decoded is reused); VM_STARTUP_FAILURE when absent. */
export const readGasSchedule = (view: StateView): GasSchedule => {
  const bytes = view.resource(ONE, GAS_SCHEDULE_TAG, GAS_SCHEDULE_TAG_BYTES)
  if (bytes === undefined) throw new VmError("VM_STARTUP_FAILURE", "gas schedule not found")
  if (last !== undefined && equalBytes(last.bytes, bytes)) return last.schedule
  let schedule: GasSchedule
  try {
    schedule = decodeGasSchedule(bytes)
  } catch (e) {
    throw new VmError("VM_STARTUP_FAILURE", `gas schedule unreadable: ${e instanceof Error ? e.message : String(e)}`)
  }
  last = { bytes, schedule }
  return schedule
}

/**
 * A meter with `maxGas` external units of budget, priced by `schedule`. `caps` applies the
 * schedule's per-category limits (`txn.max_execution_gas`, `txn.max_io_gas`, `txn.max_storage_fee`,
 * or their `.gov` variants for an approved governance script) as the reference does for
 * transactions; without it only the budget bounds the run (views, as before).
 */
export const meterFor = (
  schedule: GasSchedule,
  maxGas: bigint,
  options: { readonly caps?: boolean; readonly governance?: boolean } = {}
): GasMeter =>
  new GasMeter(
    Number(maxGas) * schedule.params.scalingFactor,
    schedule.instr,
    schedule.params,
    options.caps === true ? capsOf(schedule, options.governance === true) : NO_CAPS
  )

/** The schedule's caps (`.gov` variants for approved governance scripts); Infinity where absent. */
export const capsOf = (schedule: GasSchedule, governance: boolean): GasCaps => {
  const cap = (name: string): number => {
    const v = (governance ? schedule.entries.get(`${name}.gov`) : undefined) ?? schedule.entries.get(name)
    return v === undefined ? Number.POSITIVE_INFINITY : Number(v)
  }
  return {
    maxExecution: cap("txn.max_execution_gas"),
    maxIo: cap("txn.max_io_gas"),
    maxStorageFee: cap("txn.max_storage_fee")
  }
}
