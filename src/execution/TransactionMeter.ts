/**
 * A user transaction's gas, in the reference's categories (`StandardGasAlgebra`): execution
 * (instructions, natives, dependencies, intrinsic gas), IO (storage writes; reads too once the VM
 * reports them apart) and storage fee (octas, charged as gas at the transaction's price), over the
 * VM's `GasMeter`, which holds the one balance every charge draws from. Each category has its cap
 * (`max_execution_gas`, `max_io_gas`, `max_storage_fee`).
 *
 * The VM's meter does not yet tell its storage reads from its instructions: everything it charged
 * counts as execution here (docs/gas.md says so); the total, and so `gas_used`, is unaffected.
 */
import { GasMeter } from "../move/vm/GasMeter.js"
import { type GasSchedule, meterFor } from "../move/vm/GasSchedule.js"
import { VmError } from "../move/vm/VmError.js"
import type { TransactionGasParams } from "./TransactionGasParams.js"

export class TransactionMeter {
  /** The VM's meter: instructions and reads are charged to it during Move calls. */
  readonly gas: GasMeter
  /** IO units charged here (internal units). */
  private io = 0
  /** Storage fee charged here (octas) and its cost in internal units. */
  private storageOctas = 0n
  private storageInternal = 0

  constructor(
    schedule: GasSchedule,
    readonly params: TransactionGasParams,
    readonly maxGasAmount: bigint,
    readonly gasUnitPrice: bigint
  ) {
    this.gas = meterFor(schedule, maxGasAmount)
  }

  /** A meter that charges nothing (system sessions). */
  static unmetered(): GasMeter {
    return GasMeter.unmetered()
  }

  private draw(amount: number): void {
    // The reference charges what is left and reports OUT_OF_GAS (the balance ends at zero).
    this.gas.charge(amount)
  }

  /** Execution gas the executor charges itself (intrinsic gas, keyless base). */
  chargeExecution(internal: bigint): void {
    this.draw(Number(internal))
    if (this.executionUsed > Number(this.params.maxExecutionGas))
      throw new VmError("EXECUTION_LIMIT_REACHED", `execution gas above ${this.params.maxExecutionGas}`)
  }

  chargeIo(internal: bigint): void {
    const n = Number(internal)
    const before = this.gas.balance
    try {
      this.draw(n)
    } finally {
      this.io += before - this.gas.balance
    }
    if (this.io > Number(this.params.maxIoGas))
      throw new VmError("IO_LIMIT_REACHED", `IO gas above ${this.params.maxIoGas}`)
  }

  /** `octas` of storage fee: `ceil(octas × scaling / price)` internal units (nothing at price 0). */
  chargeStorageFee(octas: bigint): void {
    if (octas === 0n || this.gasUnitPrice === 0n) return
    const scaling = this.params.gasUnitScalingFactor
    const internal = Number((octas * scaling + this.gasUnitPrice - 1n) / this.gasUnitPrice)
    const before = this.gas.balance
    this.storageOctas += octas
    try {
      this.draw(internal)
    } finally {
      this.storageInternal += before - this.gas.balance
    }
    if (this.storageOctas > this.params.maxStorageFee)
      throw new VmError("STORAGE_LIMIT_REACHED", `storage fee above ${this.params.maxStorageFee} octas`)
  }

  /** Internal units left. */
  get balanceInternal(): number {
    return this.gas.balance
  }

  /** External units left, rounded down (what the epilogue is told remains). */
  get balance(): bigint {
    return BigInt(Math.floor(this.gas.balance)) / this.params.gasUnitScalingFactor
  }

  /** `max_gas_amount − balance`: the transaction's `gas_used`. */
  get gasUsed(): bigint {
    return this.maxGasAmount - this.balance
  }

  get executionUsed(): number {
    return this.gas.used - this.io - this.storageInternal
  }

  get ioUsed(): number {
    return this.io
  }

  get storageFeeUsed(): bigint {
    return this.storageOctas
  }

  /** A category total in external units, rounded up (the FeeStatement's execution and IO units). */
  externalRoundUp(internal: number): bigint {
    const s = this.params.gasUnitScalingFactor
    return (BigInt(Math.ceil(internal)) + s - 1n) / s
  }
}
