import type { ModuleId } from "../../domain/TypeTag.js"
import { type StatusName, StatusCodes } from "./StatusCode.js"

/**
 * A VM failure other than a Move abort: a status name (its number, the API's `vm_error_code`, is
 * `StatusCodes[status]`) and a message. Thrown inside the interpreter (the simplest way out of a
 * deep run; not a cheap one — V8 builds the message and locates the throw — so what happens on
 * every transaction, a Move abort, is answered by `Interpreter.execute` instead) and caught where a
 * call's outcome is made a value.
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
    return StatusCodes[this.status]
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
