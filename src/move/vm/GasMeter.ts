import { vmError } from "./VmError.js"

/** Caps on each category of charges (the schedule's `txn.max_*`); Infinity = none. */
export interface GasCaps {
  /** Internal units of execution gas (instructions, natives, dependencies, intrinsic). */
  readonly maxExecution: number
  /** Internal units of IO gas (storage reads here; writes charged by the executor). */
  readonly maxIo: number
  /** Octas of storage fees. */
  readonly maxStorageFee: number
}

/** Every opcode free (unmetered runs share it: nothing writes to it). */
const NO_COSTS = new Float64Array(256)

/**
 * The first value of each numeric field (`-0`: a double, never a small integer), so that V8 gives
 * the field its double representation when the meter's hidden class is first made. V8 types a
 * field by the first value stored in it: from a `0` it is a small-integer field, and the first
 * larger value (execution used and storage fees pass 2^31 internal units) moves every meter made
 * afterwards to a new hidden class, throwing away the optimized code built on the old one. A new
 * node did so within its first transfers (`executionBefore` and `storageGas`; `--trace-deopt`
 * showed `charge`, `chargeCall` and `useMemory` deoptimized on a wrong map, and no longer does).
 * The constructor then stores the real starting values (a `0` stored into a double field stays a
 * double). `GasMeter.test.ts` checks the hidden class stays one.
 */
const DOUBLE = -0

export const NO_CAPS: GasCaps = {
  maxExecution: Number.POSITIVE_INFINITY,
  maxIo: Number.POSITIVE_INFINITY,
  maxStorageFee: Number.POSITIVE_INFINITY
}

/**
 * The gas meter, in internal gas units (external × `gas_unit_scaling_factor`), with the reference's
 * three categories: execution (instructions, natives, dependency loading, intrinsic gas), IO
 * (storage reads; the executor charges writes) and storage fees (octas, converted to gas at the
 * transaction's price). Each is checked against its cap (EXECUTION_LIMIT_REACHED,
 * IO_LIMIT_REACHED, STORAGE_LIMIT_REACHED) and all draw on one budget (OUT_OF_GAS).
 *
 * The hot path charges execution with one subtraction: `balance` is what execution may still use,
 * min(budget left, execution cap left), recomputed ("synced") when another category is charged or
 * when it runs dry; execution used = what was charged against it since the last sync plus before.
 * `unmetered()` charges nothing.
 */
export class GasMeter {
  /**
   * Execution gas still available (see above). Initialised in the declaration, as every numeric
   * field here, with a double (`DOUBLE`): declared bare, an ES2022 class field starts as
   * `undefined` and becomes a tagged field, and every charge (one per instruction) would box a new
   * heap number; initialised with `0`, it becomes a small-integer field until its first large value.
   */
  balance = DOUBLE
  /**
   * Abstract memory units still available to values created by this run (the reference's memory
   * tracker over `txn.memory_quota`); running out raises MEMORY_LIMIT_EXCEEDED.
   */
  memory = DOUBLE
  /** `balance` as last synced, and the execution gas used up to then. */
  private synced = DOUBLE
  private executionBefore = DOUBLE
  private io = DOUBLE
  /** Internal units the storage fees cost, and the fees in octas. */
  private storageGas = DOUBLE
  private storageOctas = DOUBLE
  /** The budget ran out (OUT_OF_GAS): nothing is left, whatever the categories add up to. */
  private exhausted = false

  constructor(
    readonly limit: number,
    /** Cost of each opcode byte, internal units. */
    readonly instr: Float64Array,
    readonly params: GasParams,
    readonly caps: GasCaps = NO_CAPS
  ) {
    this.memory = params.memoryQuota
    this.io = 0
    this.storageGas = 0
    this.storageOctas = 0
    this.resync(0)
  }

  /** Recomputes the execution allowance after `executionUsed` = `execution`. */
  private resync(execution: number): void {
    this.executionBefore = execution
    const left = this.limit - execution - this.io - this.storageGas
    const b = Math.min(left, this.caps.maxExecution - execution)
    this.balance = b
    this.synced = b
  }

  /** Values of `units` abstract memory units were created (copied, packed, loaded, pushed). */
  useMemory(units: number): void {
    if ((this.memory -= units) < 0) this.memoryExceeded()
  }

  /** Values of `units` units were dropped. */
  releaseMemory(units: number): void {
    this.memory += units
  }

  memoryExceeded(): never {
    return vmError("MEMORY_LIMIT_EXCEEDED", `memory quota of ${this.params.memoryQuota} units exceeded`)
  }

  static unmetered(): GasMeter {
    return new GasMeter(Number.POSITIVE_INFINITY, NO_COSTS, ZERO_PARAMS)
  }

  /** Execution gas (instructions and natives call this, or subtract from `balance` inline). */
  charge(amount: number): void {
    if (!(amount >= 0)) this.invalidCharge(amount)
    if ((this.balance -= amount) < 0) this.outOfGas(amount)
  }

  /**
   * A charge that is not a number of units (NaN or undefined: a size computed over a value of the
   * wrong kind) is refused before it reaches the balance: a NaN balance passes every `< 0` check,
   * and the transaction's cleanup could no longer say what it used.
   */
  private invalidCharge(amount: unknown): never {
    return vmError("UNKNOWN_INVARIANT_VIOLATION_ERROR", `a gas charge of ${String(amount)} units`)
  }

  /** Execution gas charged by the executor (intrinsic gas, keyless, ...). */
  chargeExecution(amount: number): void {
    this.charge(amount)
  }

  /**
   * The execution allowance ran dry on a charge of `amount` (already subtracted from `balance`):
   * OUT_OF_GAS when the budget cannot pay it (the reference zeroes the balance and does not count
   * the charge), else the charge stands and the execution cap was passed: EXECUTION_LIMIT_REACHED.
   */
  outOfGas(amount = 0): never {
    const before = this.executionBefore + (this.synced - (this.balance + amount))
    const left = this.limit - before - this.io - this.storageGas
    if (amount > left || this.exhausted) {
      this.resync(before)
      this.exhausted = true
      this.balance = 0
      this.synced = 0
      return vmError("OUT_OF_GAS", "out of gas")
    }
    this.resync(before + amount)
    this.balance = -1 // every later execution charge fails at once
    this.synced = -1
    return vmError("EXECUTION_LIMIT_REACHED", "execution gas limit reached")
  }

  /** Takes `amount` from the budget for a non-execution category; false when it cannot pay. */
  private draw(amount: number): boolean {
    const execution = this.executionUsed
    const left = this.limit - execution - this.io - this.storageGas
    if (this.exhausted || amount > left) {
      this.exhausted = true
      this.executionBefore = execution
      this.balance = 0
      this.synced = 0
      return false
    }
    return true
  }

  /** IO gas (internal units): a storage read, or a write the executor prices. */
  chargeIo(amount: number): void {
    if (!(amount >= 0)) this.invalidCharge(amount)
    if (amount === 0 || this.limit === Number.POSITIVE_INFINITY) return
    const execution = this.executionUsed
    if (!this.draw(amount)) vmError("OUT_OF_GAS", "out of gas")
    this.io += amount
    this.resync(execution)
    if (this.io > this.caps.maxIo) vmError("IO_LIMIT_REACHED", "IO gas limit reached")
  }

  /**
   * A storage fee of `octas`, charged as ceil(octas × scaling factor / gas unit price) internal
   * units against the budget and counted against the storage-fee cap (octas).
   */
  chargeStorageFee(octas: bigint, gasUnitPrice: bigint): void {
    if (octas === 0n || this.limit === Number.POSITIVE_INFINITY) return
    const scaled = octas * BigInt(this.params.scalingFactor)
    const internal = gasUnitPrice === 0n ? 0 : Number((scaled + gasUnitPrice - 1n) / gasUnitPrice)
    const execution = this.executionUsed
    if (!this.draw(internal)) vmError("OUT_OF_GAS", "out of gas")
    this.storageGas += internal
    this.storageOctas += Number(octas)
    this.resync(execution)
    if (this.storageOctas > this.caps.maxStorageFee) vmError("STORAGE_LIMIT_REACHED", "storage fee limit reached")
  }

  /**
   * A storage read of `bytes` bytes (a missing value still costs the slot read), IO gas. From gas
   * feature version 12 the bytes are counted in whole 4 KiB pages, as the reference's IO pricing does.
   */
  chargeRead(bytes: number): void {
    const counted =
      this.params.readPageSize > 0 ? Math.ceil(bytes / this.params.readPageSize) * this.params.readPageSize : bytes
    this.chargeIo(this.params.readSlot + this.params.readByte * counted)
  }

  chargeCall(args: number, locals: number): void {
    this.charge(this.params.callBase + this.params.callPerArg * args + this.params.callPerLocal * locals)
  }

  /**
   * A module's first use in a run: framework addresses (0x0–0xf, "special") are free, as in the
   * reference; others cost per module and per byte.
   */
  chargeDependency(address: Uint8Array, byteLength: number): void {
    if (this.params.dependencyPerModule === 0 && this.params.dependencyPerByte === 0) return
    let special = address[31]! < 16
    for (let i = 0; i < 31 && special; i++) if (address[i] !== 0) special = false
    if (!special) this.charge(this.params.dependencyPerModule + this.params.dependencyPerByte * byteLength)
  }

  /** A native's base cost: the schedule's entry for it, or the flat default. */
  chargeNative(fullName: string): void {
    this.charge(this.params.nativeCosts.get(fullName) ?? this.params.nativeBase)
  }

  /** Internal units of execution gas used. */
  get executionUsed(): number {
    if (this.synced === Number.POSITIVE_INFINITY) return 0 // unmetered
    return this.executionBefore + (this.synced - this.balance)
  }

  /** Internal units of IO gas used. */
  get ioUsed(): number {
    return this.io
  }

  /** Storage fees charged, in octas (before refunds, which the executor computes). */
  get storageFeeOctas(): number {
    return this.storageOctas
  }

  /** Internal units the storage fees cost. */
  get storageGasUsed(): number {
    return this.storageGas
  }

  /** Internal units left in the budget. */
  get remaining(): number {
    if (this.exhausted) return 0
    return Math.max(0, this.limit - this.executionUsed - this.io - this.storageGas)
  }

  /** Internal units used so far (the whole budget once it ran out). */
  get used(): number {
    return this.limit - this.remaining
  }
}

/** Per-unit instruction terms charged beside the base cost (internal units). */
export interface SizedCosts {
  readonly copyLocPerUnit: number
  readonly readRefPerUnit: number
  readonly eqPerUnit: number
  readonly ldConstPerByte: number
  readonly packPerField: number
  readonly vecPackPerElem: number
  readonly vecUnpackPerElem: number
  readonly abortMsgPerByte: number
  /** Abstract size of one scalar, struct, vector or reference node (`misc.abs_val.*`, 40 today). */
  readonly absValNode: number
}

export interface GasParams {
  readonly callBase: number
  readonly callPerArg: number
  readonly callPerLocal: number
  readonly callGenericPerTyArg: number
  readonly readSlot: number
  readonly readByte: number
  /** Flat charge per native call when the schedule has no specific entry. */
  readonly nativeBase: number
  /** Per byte a native hashes or serialises. */
  readonly nativePerByte: number
  readonly scalingFactor: number
  /** Abstract memory units one run's values may take (`txn.memory_quota`); Infinity = untracked. */
  readonly memoryQuota: number
  /** Loading a module outside the special addresses 0x0–0xf (feature version ≥ 15; 0 before). */
  readonly dependencyPerModule: number
  readonly dependencyPerByte: number
  readonly sized: SizedCosts
  /** Reads count bytes in pages of this size (4096 from gas feature version 12); 0 = exact bytes. */
  readonly readPageSize: number
  /** Every schedule entry by name (internal units), for the natives' size-dependent terms. */
  readonly costs: ReadonlyMap<string, number>
  /** Base cost of each native by fully qualified name (`0x1::table::borrow_box`), when the schedule names one. */
  readonly nativeCosts: ReadonlyMap<string, number>
}

export const ZERO_PARAMS: GasParams = {
  callBase: 0,
  callPerArg: 0,
  callPerLocal: 0,
  callGenericPerTyArg: 0,
  readSlot: 0,
  readByte: 0,
  nativeBase: 0,
  nativePerByte: 0,
  scalingFactor: 1,
  memoryQuota: Number.POSITIVE_INFINITY,
  dependencyPerModule: 0,
  dependencyPerByte: 0,
  sized: {
    copyLocPerUnit: 0,
    readRefPerUnit: 0,
    eqPerUnit: 0,
    ldConstPerByte: 0,
    packPerField: 0,
    vecPackPerElem: 0,
    vecUnpackPerElem: 0,
    abortMsgPerByte: 0,
    absValNode: 0
  },
  readPageSize: 0,
  costs: new Map(),
  nativeCosts: new Map()
}
