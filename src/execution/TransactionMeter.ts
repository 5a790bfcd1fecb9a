/**
 * A user transaction's gas (the reference's `StandardGasAlgebra` as the executor sees it): the
 * VM's `GasMeter` with the schedule's caps, whose three categories — execution (instructions,
 * natives, dependencies, the intrinsic gas charged here), IO (storage reads in the VM, writes
 * charged here) and storage fees (octas at the transaction's price) — draw on one budget of
 * `max_gas_amount` external units. This wrapper adds what the executor reads back: the balance and
 * gas used in external units (rounded as the reference rounds them) and the FeeStatement's
 * category totals.
 */
import type { GasMeter } from "../move/vm/GasMeter.js"
import { type GasSchedule, meterFor } from "../move/vm/GasSchedule.js"
import type { TransactionGasParams } from "./TransactionGasParams.js"

export class TransactionMeter {
  /** The VM's meter: Move calls charge it; the executor charges intrinsic gas, writes and fees on it. */
  readonly gas: GasMeter

  constructor(
    schedule: GasSchedule,
    readonly params: TransactionGasParams,
    readonly maxGasAmount: bigint,
    readonly gasUnitPrice: bigint
  ) {
    this.gas = meterFor(schedule, maxGasAmount, { caps: true })
  }

  /**
   * Takes over what another meter used (account abstraction's authentication, which runs on a meter
   * of its own bounded by `txn.max_aa_gas`): its execution and IO gas are charged here, as if they
   * had been charged on this meter from the start.
   */
  absorb(other: GasMeter): void {
    this.gas.chargeExecution(other.executionUsed)
    this.gas.chargeIo(other.ioUsed)
  }

  /** Execution gas the executor charges itself (intrinsic gas, keyless base). Throws the VM's VmError. */
  chargeExecution(internal: bigint): void {
    this.gas.chargeExecution(Number(internal))
  }

  /** IO gas of the writes, events and transaction bytes. Throws the VM's VmError. */
  chargeIo(internal: bigint): void {
    this.gas.chargeIo(Number(internal))
  }

  /** A storage fee in octas (nothing at price 0). Throws the VM's VmError. */
  chargeStorageFee(octas: bigint): void {
    this.gas.chargeStorageFee(octas, this.gasUnitPrice)
  }

  /** External units left, rounded down (what the epilogue is told remains). */
  get balance(): bigint {
    return BigInt(Math.floor(this.gas.remaining)) / this.params.gasUnitScalingFactor
  }

  /** `max_gas_amount − balance`: the transaction's `gas_used`. */
  get gasUsed(): bigint {
    return this.maxGasAmount - this.balance
  }

  get executionUsed(): number {
    return this.gas.executionUsed
  }

  get ioUsed(): number {
    return this.gas.ioUsed
  }

  get storageFeeUsed(): bigint {
    return BigInt(this.gas.storageFeeOctas)
  }

  /** A category total in external units, rounded up (the FeeStatement's execution and IO units). */
  externalRoundUp(internal: number): bigint {
    const s = this.params.gasUnitScalingFactor
    return (BigInt(Math.ceil(internal)) + s - 1n) / s
  }
}
