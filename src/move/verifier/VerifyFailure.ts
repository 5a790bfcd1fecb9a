import type { StatusName } from "../vm/StatusCode.js"

/**
 * Why a module or script was refused by a verifier pass: the reference's status (as
 * `move-bytecode-verifier` names it, e.g. `TYPE_MISMATCH`, `INVALID_FALL_THROUGH`) and where.
 */
export interface VerifyFailure {
  readonly status: StatusName
  readonly message: string
  /** The function definition (index into `functionDefs`) the failure is in, when in one. */
  readonly functionDef?: number | undefined
  /** The instruction (index into the code unit) the failure is at, when at one. */
  readonly offset?: number | undefined
}
