/**
 * The control-flow graph of one code unit and a forward dataflow driver over it, shared by the
 * flow-sensitive passes (`localsSafety.ts`, `referenceSafety.ts`). The reference runs those passes
 * with its abstract interpreter (`absint.rs`) over `VMControlFlowGraph`; this is our own version of
 * the same idea:
 *
 *  - basic blocks are the stack-usage pass's (`blockLeaders` in `typeSafetyStackUsage.ts`): cut at
 *    offset 0, at every branch target and after every branch, Ret, Abort and AbortMsg;
 *  - a block's successors are its branch targets and, unless it ends in Branch, Ret, Abort or
 *    AbortMsg, the next block (fall through);
 *  - the driver keeps one entry state per block, runs a block's transfer function from it, and
 *    joins the block's exit state into each successor's entry state, re-running a successor whose
 *    entry state grew, until nothing changes (a fixpoint). Blocks are visited in reverse postorder,
 *    so a loop body is normally revisited once per growth of its head's state.
 *
 * Blocks no path from the entry reaches are never run, as in the reference (whose interpreter skips
 * a block that has no entry state): their code is type-checked but cannot execute.
 *
 * Why a work bound: a hostile module can make a fixpoint slow to reach (the reference bounds it with
 * its meter and refuses with CONSTRAINT_NOT_SATISFIED, "program too complex"). The passes charge
 * `Meter` units at the reference's rates and refuse past the reference's per-function limit.
 */
import type { Instruction } from "../binary/CompiledModule.js"
import { Opcode } from "../binary/Opcode.js"
import { blockLeaders, endsBlock } from "./typeSafetyStackUsage.js"

// The enum object held once: under some loaders each `Opcode.X` goes through a module-namespace
// getter, and the transfer functions switch on dozens of them per instruction.
const O = Opcode

export interface ControlFlowGraph {
  /** First instruction of each block, in code order. */
  readonly starts: ReadonlyArray<number>
  /** Last instruction of each block (inclusive). */
  readonly ends: ReadonlyArray<number>
  /** Successor blocks of each block (deduplicated). */
  readonly successors: ReadonlyArray<ReadonlyArray<number>>
  /** The blocks reachable from the entry (block 0), in reverse postorder. */
  readonly order: ReadonlyArray<number>
}

const isBranch = (op: Opcode): boolean => op === O.Branch || op === O.BrTrue || op === O.BrFalse

export const buildControlFlowGraph = (code: ReadonlyArray<Instruction>): ControlFlowGraph => {
  const leaders = blockLeaders(code)
  const starts: number[] = []
  const blockAt = new Int32Array(code.length).fill(-1)
  for (let i = 0; i < code.length; i++) if (leaders[i] === 1) starts.push(i)
  const ends: number[] = []
  for (let b = 0; b < starts.length; b++) {
    const end = b + 1 < starts.length ? starts[b + 1]! - 1 : code.length - 1
    ends.push(end)
    for (let i = starts[b]!; i <= end; i++) blockAt[i] = b
  }
  const successors: number[][] = []
  for (let b = 0; b < starts.length; b++) {
    const last = code[ends[b]!]!
    const out: number[] = []
    const add = (offset: number): void => {
      // Targets are in range after the deserializer's bounds check; a stray one is simply no edge.
      const target = offset >= 0 && offset < code.length ? blockAt[offset]! : -1
      if (target >= 0 && !out.includes(target)) out.push(target)
    }
    if (isBranch(last.op)) add((last as { offset: number }).offset)
    if (!endsBlock(last.op) || last.op === O.BrTrue || last.op === O.BrFalse) add(ends[b]! + 1)
    successors.push(out)
  }
  return { starts, ends, successors, order: reversePostorder(successors) }
}

/** Reverse postorder of the blocks reachable from block 0 (iterative: bodies may be long). */
const reversePostorder = (successors: ReadonlyArray<ReadonlyArray<number>>): number[] => {
  if (successors.length === 0) return []
  const post: number[] = []
  const seen = new Uint8Array(successors.length)
  const stack: Array<[number, number]> = [[0, 0]]
  seen[0] = 1
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!
    const next = successors[top[0]]![top[1]]
    if (next === undefined) {
      post.push(top[0])
      stack.pop()
      continue
    }
    top[1]++
    if (seen[next] === 0) {
      seen[next] = 1
      stack.push([next, 0])
    }
  }
  return post.reverse()
}

/**
 * The reference's meter bound (`max_per_fun_meter_units` and `max_per_mod_meter_units` of the
 * production verifier config, both 1000 * 80000 units); reference safety meters a whole module.
 */
export const MAX_FUNCTION_METER_UNITS = 80_000_000

/** Thrown by a meter past its bound; the passes turn it into CONSTRAINT_NOT_SATISFIED. */
export class TooComplex extends Error {
  constructor() {
    super("program too complex")
  }
}

/** Work units charged by a pass (over a function, or a module), refused past `MAX_FUNCTION_METER_UNITS`. */
export class Meter {
  units = 0
  add(units: number): void {
    this.units += units
    if (this.units > MAX_FUNCTION_METER_UNITS) throw new TooComplex()
  }
}

/** How a pass's states behave for `runForward`. */
export interface Dataflow<S> {
  /** Runs block `block` from `entry` (which it may mutate) and returns the exit state; throws to refuse. */
  readonly execute: (block: number, entry: S) => S
  /** A copy of `s`, so that a block's stored entry state survives its execution. */
  readonly copy: (s: S) => S
  /** Joins `incoming` into `into`: the joined state, or undefined when `into` already covers it. */
  readonly join: (into: S, incoming: S) => S | undefined
}

/** Runs the dataflow from `initial` at block 0 to a fixpoint (see the header). */
export const runForward = <S>(cfg: ControlFlowGraph, initial: S, flow: Dataflow<S>): void => {
  const n = cfg.starts.length
  if (n === 0) return
  const entry: Array<S | undefined> = new Array(n)
  const dirty = new Uint8Array(n)
  const position = new Int32Array(n).fill(-1)
  cfg.order.forEach((b, i) => {
    position[b] = i
  })
  entry[0] = initial
  dirty[0] = 1
  let i = 0
  // Sweep the reverse postorder; a change at an earlier block (a loop head) restarts from it.
  while (i < cfg.order.length) {
    const b = cfg.order[i]!
    if (dirty[b] === 0) {
      i++
      continue
    }
    dirty[b] = 0
    const exit = flow.execute(b, flow.copy(entry[b]!))
    let restart = i + 1
    for (const s of cfg.successors[b]!) {
      const current = entry[s]
      let changed = false
      if (current === undefined) {
        entry[s] = flow.copy(exit)
        changed = true
      } else {
        const joined = flow.join(current, exit)
        if (joined !== undefined) {
          entry[s] = joined
          changed = true
        }
      }
      if (changed) {
        dirty[s] = 1
        const p = position[s]!
        if (p >= 0 && p < restart) restart = p
      }
    }
    i = restart
  }
}
