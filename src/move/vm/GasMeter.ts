import { vmError } from "./VmError.js"

/**
 * The gas meter: a balance in internal gas units and a cost per opcode byte. Charging an
 * instruction is a table lookup and a subtraction; running dry raises OUT_OF_GAS. The costs come
 * from the on-chain gas schedule (`gasScheduleCosts`); `unmetered()` charges nothing.
 */
export class GasMeter {
  /**
   * Initialised in the declaration so that V8 gives the field a numeric (double) representation
   * from the start: declared bare, ES2022 class fields start as `undefined`, the field becomes
   * tagged, and every charge (one per instruction) boxes a new heap number.
   */
  balance = 0
  /**
   * Abstract memory units still available to values created by this run (the reference's memory
   * tracker over `txn.memory_quota`); running out raises MEMORY_LIMIT_EXCEEDED.
   */
  memory = 0
  constructor(
    readonly limit: number,
    /** Cost of each opcode byte, internal units. */
    readonly instr: Float64Array,
    readonly params: GasParams
  ) {
    this.balance = limit
    this.memory = params.memoryQuota
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
    return new GasMeter(Number.POSITIVE_INFINITY, new Float64Array(256), ZERO_PARAMS)
  }

  charge(amount: number): void {
    if ((this.balance -= amount) < 0) this.outOfGas()
  }

  outOfGas(): never {
    this.balance = 0
    return vmError("OUT_OF_GAS", "out of gas")
  }

  /** A storage read of `bytes` bytes (a missing value still costs the slot read). */
  chargeRead(bytes: number): void {
    this.charge(this.params.readSlot + this.params.readByte * bytes)
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

  /** Internal units used so far. */
  get used(): number {
    return this.limit - this.balance
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
  nativeCosts: new Map()
}
