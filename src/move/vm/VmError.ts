import type { ModuleId } from "../../domain/TypeTag.js"

/**
 * The reference's `StatusCode` values the VM can raise (numbers as in `vm_status.rs`, so that the
 * API's `vm_error_code` matches the reference).
 */
export const StatusCode = {
  INVALID_MAIN_FUNCTION_SIGNATURE: 1011,
  LOOKUP_FAILED: 1017,
  TYPE_MISMATCH: 1020,
  MISSING_DEPENDENCY: 1021,
  CONSTRAINT_NOT_SATISFIED: 1075,
  NUMBER_OF_TYPE_ARGUMENTS_MISMATCH: 1076,
  LINKER_ERROR: 1081,
  FUNCTION_RESOLUTION_FAILURE: 1091,
  INVALID_OPERATION_IN_SCRIPT: 1094,
  DUPLICATE_MODULE_NAME: 1095,
  BACKWARD_INCOMPATIBLE_MODULE_UPDATE: 1096,
  CYCLIC_MODULE_DEPENDENCY: 1097,
  NUMBER_OF_ARGUMENTS_MISMATCH: 1098,
  FAILED_TO_DESERIALIZE_ARGUMENT: 1100,
  NUMBER_OF_SIGNER_ARGUMENTS_MISMATCH: 1101,
  EXECUTE_ENTRY_FUNCTION_CALLED_ON_NON_ENTRY_FUNCTION: 1103,
  EVENT_METADATA_VALIDATION_ERROR: 1123,
  UNKNOWN_INVARIANT_VIOLATION_ERROR: 2000,
  STORAGE_ERROR: 2008,
  INTERNAL_TYPE_ERROR: 2009,
  EVENT_KEY_MISMATCH: 2010,
  UNREACHABLE: 2011,
  VM_STARTUP_FAILURE: 2012,
  UNEXPECTED_ERROR_FROM_KNOWN_MOVE_FUNCTION: 2015,
  FAILED_TO_DESERIALIZE_RESOURCE: 2020,
  TYPE_RESOLUTION_FAILURE: 2021,
  UNKNOWN_VERSION: 3003,
  CODE_DESERIALIZATION_ERROR: 3024,
  VALUE_SERIALIZATION_ERROR: 3022,
  VALUE_DESERIALIZATION_ERROR: 3023,
  OUT_OF_GAS: 4002,
  RESOURCE_DOES_NOT_EXIST: 4003,
  RESOURCE_ALREADY_EXISTS: 4004,
  MISSING_DATA: 4008,
  ABORTED: 4016,
  ARITHMETIC_ERROR: 4017,
  VECTOR_OPERATION_ERROR: 4018,
  EXECUTION_STACK_OVERFLOW: 4020,
  CALL_STACK_OVERFLOW: 4021,
  VM_MAX_TYPE_DEPTH_REACHED: 4024,
  VM_MAX_VALUE_DEPTH_REACHED: 4025,
  VM_EXTENSION_ERROR: 4026,
  /** The memory tracker's quota (`txn.memory_quota`) ran out. */
  MEMORY_LIMIT_EXCEEDED: 4028,
  VM_MAX_TYPE_NODES_REACHED: 4029,
  EXECUTION_LIMIT_REACHED: 4030,
  IO_LIMIT_REACHED: 4031,
  STORAGE_LIMIT_REACHED: 4032,
  /** Newer than the vm_status.rs I could read (its RESERVED_RUNTIME_ERROR_3 slot); unverified. */
  STRUCT_VARIANT_MISMATCH: 4038
} as const

export type StatusName = keyof typeof StatusCode

/**
 * A VM failure other than a Move abort: a status name (its number is `StatusCode[status]`) and a
 * message. Thrown inside the interpreter (the simplest way out of a deep run; not a cheap one — V8
 * builds the message and locates the throw — so what happens on every transaction, a Move abort, is
 * answered by `Interpreter.execute` instead) and caught where a call's outcome is made a value.
 */
export class VmError extends Error {
  override readonly name = "VmError"
  constructor(
    readonly status: StatusName,
    readonly detail: string,
    /** The module whose code was running, when known. */
    readonly location?: ModuleId,
    /**
     * Where in that module: the function (definition index and name) and the instruction offset,
     * for the reference's `ExecutionFailure { location, function, code_offset }`.
     */
    readonly at?: { readonly functionIndex: number; readonly functionName: string; readonly codeOffset: number }
  ) {
    super(`${status}: ${detail}`)
  }

  get code(): number {
    return StatusCode[this.status]
  }
}

/** `abort code` (or a failed runtime check mapped to an abort-like status) raised by Move code. */
export class MoveAbort extends Error {
  override readonly name = "MoveAbort"
  constructor(
    readonly code: bigint,
    /** The module that aborted (for the error-map lookup); undefined for a script. */
    readonly location: ModuleId | undefined,
    /** The message of `AbortMsg` (v10), if any. */
    readonly abortMessage?: string
  ) {
    // An abort is an outcome of Move code, not a bug of ours: no JS stack is captured (~2 µs each,
    // and admission aborts the prologue of every transaction queued behind its sender's on-chain
    // sequence number with SEQUENCE_NUMBER_TOO_NEW).
    const limit = Error.stackTraceLimit
    Error.stackTraceLimit = 0
    super(`Move abort ${code}`)
    Error.stackTraceLimit = limit
  }
}

export const vmError = (status: StatusName, detail: string): never => {
  throw new VmError(status, detail)
}
