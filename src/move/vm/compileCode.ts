import type { Instruction } from "../binary/Instruction.js"

/**
 * A function body in the form the interpreter runs: parallel typed arrays instead of instruction
 * objects. `op[pc]` is the opcode byte; `arg[pc]` its index, branch target, local or small
 * immediate; `big[pc]` the 64-bit-and-wider immediates (LdU64…, VecPack/VecUnpack counts, closure
 * masks). Built once per function, on its first call.
 *
 * One more instruction than the code has sits at the end: `RAN_PAST_END` (0, no opcode's byte),
 * which the interpreter answers with an error. A body whose last instruction falls through (no
 * `Ret`, `Abort` or `Branch`; the reference's verifier refuses it as INVALID_FALL_THROUGH, and
 * publishing refuses it here too: `verifyControlFlow`) would otherwise run on into `op[n]`,
 * `undefined`, whose gas cost is NaN: a NaN balance broke the transaction's cleanup and, with it,
 * every block that held the transaction.
 */
export interface CompiledCode {
  readonly op: Uint8Array
  readonly arg: Int32Array
  readonly big: ReadonlyArray<bigint | undefined>
  /** Operand integer kind of arithmetic instructions (see `inferKinds`). */
  readonly kind: Uint8Array
}

/** The sentinel after a body's last instruction (the byte no opcode uses). */
export const RAN_PAST_END = 0

export const compileCode = (code: ReadonlyArray<Instruction>, kind: Uint8Array): CompiledCode => {
  const n = code.length
  // n + 1: the last is RAN_PAST_END (a typed array starts zeroed).
  const op = new Uint8Array(n + 1)
  const arg = new Int32Array(n + 1)
  const big: Array<bigint | undefined> = new Array(n)
  for (let pc = 0; pc < n; pc++) {
    const i = code[pc]! as Instruction & {
      offset?: number
      index?: number
      value?: number | bigint
      count?: bigint
      mask?: bigint
    }
    op[pc] = i.op
    if (i.offset !== undefined) arg[pc] = i.offset
    else if (i.index !== undefined) arg[pc] = i.index
    else if (typeof i.value === "number") arg[pc] = i.value
    if (typeof i.value === "bigint") big[pc] = i.value
    else if (i.count !== undefined) big[pc] = i.count
    else if (i.mask !== undefined) big[pc] = i.mask
  }
  return { op, arg, big, kind }
}
