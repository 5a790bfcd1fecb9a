/**
 * The reference verifier's control-flow rule every function body must meet: a body is not empty
 * (EMPTY_CODE_UNIT) and its last instruction does not fall through (INVALID_FALL_THROUGH: it is
 * `Ret`, `Abort`, `AbortMsg` or `Branch`), so execution can never run past the code. Branch
 * targets inside the body are the deserializer's bounds check (`binary/checkBounds.ts`).
 *
 * Not checked: bytecode v5's loop rules (reducible loops), which the reference applies to v5
 * modules only; the interpreter needs no loop structure.
 */
import type { CompiledModule } from "../binary/CompiledModule.js"
import { Opcode } from "../binary/Opcode.js"
import type { VerifyFailure } from "./VerifyFailure.js"

const ENDS_A_BODY = new Set<number>([Opcode.Ret, Opcode.Abort, Opcode.AbortMsg, Opcode.Branch])

export const verifyControlFlow = (m: CompiledModule): VerifyFailure | undefined => {
  for (let i = 0; i < m.functionDefs.length; i++) {
    const code = m.functionDefs[i]!.code?.code
    if (code === undefined) continue
    if (code.length === 0) return { status: "EMPTY_CODE_UNIT", message: "a function body without instructions", functionDef: i }
    if (!ENDS_A_BODY.has(code[code.length - 1]!.op))
      return {
        status: "INVALID_FALL_THROUGH",
        message: "the last instruction falls through (not Ret, Abort or Branch)",
        functionDef: i,
        offset: code.length - 1
      }
  }
  return undefined
}
