/**
 * The `txn.*` entries of the on-chain gas schedule the executor prices with (the reference's
 * `TransactionGasParameters`), decoded once per schedule object and kept beside it.
 *
 * Units: `*_gas_units`/IO/intrinsic entries are internal gas units (external × scaling factor);
 * prices and storage fees are octas; sizes are bytes. Values are bigints: price × max gas does not
 * fit a double.
 */
import type { GasSchedule } from "../move/vm/GasSchedule.js"

export interface TransactionGasParams {
  readonly featureVersion: bigint
  readonly minTransactionGasUnits: bigint
  readonly largeTransactionCutoff: bigint
  readonly intrinsicGasPerByte: bigint
  /** External units. */
  readonly maximumNumberOfGasUnits: bigint
  readonly minPricePerGasUnit: bigint
  readonly maxPricePerGasUnit: bigint
  readonly maxTransactionSizeInBytes: bigint
  readonly maxTransactionSizeInBytesGov: bigint
  readonly gasUnitScalingFactor: bigint
  readonly storageIoPerStateSlotWrite: bigint
  readonly storageIoPerStateByteWrite: bigint
  readonly storageIoPerEventByteWrite: bigint
  readonly storageIoPerTransactionByteWrite: bigint
  readonly storageFeePerStateSlot: bigint
  readonly storageFeePerStateByte: bigint
  readonly maxExecutionGas: bigint
  readonly maxIoGas: bigint
  /** Octas. */
  readonly maxStorageFee: bigint
  readonly keylessBase: bigint
  /** External units: the meter's budget while an account-abstraction authenticator runs. */
  readonly maxAaGas: bigint
  readonly maxBytesPerWriteOp: bigint
  readonly maxBytesAllWriteOpsPerTransaction: bigint
  readonly maxBytesPerEvent: bigint
  readonly maxBytesAllEventsPerTransaction: bigint
  readonly maxWriteOpsPerTransaction: bigint
}

/** Entries the executor cannot price without; a schedule lacking one refuses transactions (VM_STARTUP_FAILURE). */
const REQUIRED = {
  minTransactionGasUnits: "txn.min_transaction_gas_units",
  largeTransactionCutoff: "txn.large_transaction_cutoff",
  intrinsicGasPerByte: "txn.intrinsic_gas_per_byte",
  maximumNumberOfGasUnits: "txn.maximum_number_of_gas_units",
  minPricePerGasUnit: "txn.min_price_per_gas_unit",
  maxPricePerGasUnit: "txn.max_price_per_gas_unit",
  maxTransactionSizeInBytes: "txn.max_transaction_size_in_bytes",
  gasUnitScalingFactor: "txn.gas_unit_scaling_factor",
  storageIoPerStateSlotWrite: "txn.storage_io_per_state_slot_write",
  storageIoPerStateByteWrite: "txn.storage_io_per_state_byte_write",
  storageFeePerStateSlot: "txn.storage_fee_per_state_slot",
  storageFeePerStateByte: "txn.storage_fee_per_state_byte",
  maxExecutionGas: "txn.max_execution_gas",
  maxIoGas: "txn.max_io_gas",
  maxStorageFee: "txn.max_storage_fee"
} as const

/**
 * Entries added by later gas feature versions: absent in older schedules, where the reference's
 * parameter is zero (or, for the limits, unlimited).
 */
const OPTIONAL = {
  maxTransactionSizeInBytesGov: ["txn.max_transaction_size_in_bytes.gov", 1024n * 1024n],
  storageIoPerEventByteWrite: ["txn.storage_io_per_event_byte_write", 0n],
  storageIoPerTransactionByteWrite: ["txn.storage_io_per_transaction_byte_write", 0n],
  keylessBase: ["txn.keyless.base", 0n],
  maxAaGas: ["txn.max_aa_gas", 0n],
  maxBytesPerWriteOp: ["txn.max_bytes_per_write_op", 1n << 64n],
  maxBytesAllWriteOpsPerTransaction: ["txn.max_bytes_all_write_ops_per_transaction", 1n << 64n],
  maxBytesPerEvent: ["txn.max_bytes_per_event", 1n << 64n],
  maxBytesAllEventsPerTransaction: ["txn.max_bytes_all_events_per_transaction", 1n << 64n],
  maxWriteOpsPerTransaction: ["txn.max_write_ops_per_transaction", 1n << 64n]
} as const

/** The params, or the name of the first required entry the schedule lacks. */
export type TransactionGasParamsResult =
  | { readonly _tag: "Ok"; readonly params: TransactionGasParams }
  | { readonly _tag: "Missing"; readonly entry: string }

export const decodeTransactionGasParams = (
  entries: ReadonlyMap<string, bigint>,
  featureVersion: bigint
): TransactionGasParamsResult => {
  const out: Record<string, bigint> = { featureVersion }
  for (const [field, key] of Object.entries(REQUIRED)) {
    const v = entries.get(key)
    if (v === undefined) return { _tag: "Missing", entry: key }
    out[field] = v
  }
  for (const [field, [key, fallback]] of Object.entries(OPTIONAL)) out[field] = entries.get(key) ?? fallback
  if (out.gasUnitScalingFactor === 0n) return { _tag: "Missing", entry: "txn.gas_unit_scaling_factor (zero)" }
  return { _tag: "Ok", params: out as unknown as TransactionGasParams }
}

const bySchedule = new WeakMap<GasSchedule, TransactionGasParamsResult>()

/** The schedule's transaction params, decoded on first use and kept with the (cached) schedule object. */
export const transactionGasParams = (schedule: GasSchedule): TransactionGasParamsResult => {
  let r = bySchedule.get(schedule)
  if (r === undefined) {
    r = decodeTransactionGasParams(schedule.entries, schedule.featureVersion)
    bySchedule.set(schedule, r)
  }
  return r
}

/**
 * Intrinsic gas of a transaction of `size` bytes (BCS of its RawTransaction), internal units:
 * `min_transaction_gas_units + intrinsic_gas_per_byte × max(0, size − large_transaction_cutoff)`.
 */
export const intrinsicGas = (p: TransactionGasParams, size: bigint): bigint => {
  const excess = size > p.largeTransactionCutoff ? size - p.largeTransactionCutoff : 0n
  return p.minTransactionGasUnits + p.intrinsicGasPerByte * excess
}

/** Internal → external units, rounded up (what a charge costs the user). */
export const toExternalRoundUp = (p: TransactionGasParams, internal: bigint): bigint =>
  (internal + p.gasUnitScalingFactor - 1n) / p.gasUnitScalingFactor
