/**
 * The reference verifier's control-flow rules every function body must meet: a body is not empty
 * (EMPTY_CODE_UNIT) and its last instruction does not fall through (INVALID_FALL_THROUGH: it is
 * `Ret`, `Abort`, `AbortMsg` or `Branch`), so execution can never run past the code; a module
 * function has at most 1,024 basic blocks (TOO_MANY_BASIC_BLOCKS; a script has no such limit), and
 * its loops are reducible and nested at most five deep (`controlFlowLoops.ts`). Branch targets
 * inside the body are the deserializer's bounds check (`binary/checkBounds.ts`).
 *
 * Not checked: bytecode v5's further loop-shape rules (`control_flow_v5` in the reference: where
 * a loop's breaks and continues may jump), which only modules of that old version must meet.
 */
import type { CompiledModule } from "../binary/CompiledModule.js"
import { Opcode } from "../binary/Opcode.js"
import { buildControlFlowGraph } from "./controlFlowGraph.js"
import { loopFailure, MAX_BASIC_BLOCKS } from "./controlFlowLoops.js"
import type { VerifyFailure } from "./VerifyFailure.js"

const ENDS_A_BODY = new Set<number>([Opcode.Ret, Opcode.Abort, Opcode.AbortMsg, Opcode.Branch])

/** `isScript`: the unit is a script as a module (`scriptAsModule`), which has no block limit. */
export const verifyControlFlow = (m: CompiledModule, isScript = false): VerifyFailure | undefined => {
  for (let i = 0; i < m.functionDefs.length; i++) {
    const code = m.functionDefs[i]!.code?.code
    if (code === undefined) continue
    if (code.length === 0)
      return { status: "EMPTY_CODE_UNIT", message: "a function body without instructions", functionDef: i }
    if (!ENDS_A_BODY.has(code[code.length - 1]!.op))
      return {
        status: "INVALID_FALL_THROUGH",
        message: "the last instruction falls through (not Ret, Abort or Branch)",
        functionDef: i,
        offset: code.length - 1
      }
    const cfg = buildControlFlowGraph(code)
    if (!isScript && cfg.starts.length > MAX_BASIC_BLOCKS)
      return {
        status: "TOO_MANY_BASIC_BLOCKS",
        message: `${cfg.starts.length} basic blocks (at most ${MAX_BASIC_BLOCKS})`,
        functionDef: i,
        offset: 0
      }
    const loops = loopFailure(cfg)
    if (loops !== undefined) return { ...loops, functionDef: i }
  }
  return undefined
}
