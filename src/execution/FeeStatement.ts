/**
 * `0x1::transaction_fee::FeeStatement`: what a transaction was charged, emitted by the epilogue as
 * the transaction's last event. `totalChargeGasUnits` is the gas used (external units);
 * `executionGasUnits` and `ioGasUnits` are the meter's category totals rounded up to external
 * units; storage fee and refund are octas (the refund is 0 for a failed transaction).
 */
export interface FeeStatement {
  readonly totalChargeGasUnits: bigint
  readonly executionGasUnits: bigint
  readonly ioGasUnits: bigint
  readonly storageFeeOctas: bigint
  readonly storageFeeRefundOctas: bigint
}

export const ZERO_FEE_STATEMENT: FeeStatement = {
  totalChargeGasUnits: 0n,
  executionGasUnits: 0n,
  ioGasUnits: 0n,
  storageFeeOctas: 0n,
  storageFeeRefundOctas: 0n
}

/** The value in the framework's field names (for `encodeByLayout`). */
export const feeStatementFields = (f: FeeStatement) => ({
  total_charge_gas_units: f.totalChargeGasUnits,
  execution_gas_units: f.executionGasUnits,
  io_gas_units: f.ioGasUnits,
  storage_fee_octas: f.storageFeeOctas,
  storage_fee_refund_octas: f.storageFeeRefundOctas
})
