/**
 * Loops are reducible and nested at most five deep; module functions have at most 1,024 blocks
 * (`controlFlowLoops.ts`, `controlFlow.ts`). The reducibility verdict is checked against an oracle
 * written another way: the T1/T2 reduction of the graph (drop a self loop; merge a block into its
 * only predecessor), which leaves the entry alone exactly when the graph is reducible.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { Instruction } from "../../../src/move/binary/CompiledModule.js"
import { Opcode } from "../../../src/move/binary/Opcode.js"
import { verifyControlFlow } from "../../../src/move/verifier/controlFlow.js"
import { buildControlFlowGraph, type ControlFlowGraph } from "../../../src/move/verifier/controlFlowGraph.js"
import { loopFailure, MAX_BASIC_BLOCKS, MAX_LOOP_DEPTH } from "../../../src/move/verifier/controlFlowLoops.js"
import { functionHandle, moduleOf, op } from "../../support/moveAssembly.js"
import { USER } from "./support.js"

const to = (o: Opcode, offset: number): Instruction => ({ op: o, offset }) as Instruction

/** `depth` loops, each inside the one before: `loop { if (!c) break; <inner> }`, then Ret. */
const nested = (depth: number): Instruction[] => {
  const code: Instruction[] = []
  const open = (level: number): void => {
    if (level === depth) return
    const head = code.length
    code.push(op(Opcode.LdTrue))
    const exit = code.length
    code.push(to(Opcode.BrFalse, -1))
    open(level + 1)
    code.push(to(Opcode.Branch, head))
    code[exit] = to(Opcode.BrFalse, code.length)
  }
  open(0)
  code.push(op(Opcode.Ret))
  return code
}

/** A module with one function `f()` whose body is `code`. */
const withBody = (code: Instruction[]) =>
  moduleOf({
    moduleHandles: [{ address: 0, name: 0 }],
    functionHandles: [functionHandle(0, 1, 0, 0)],
    signatures: [[]],
    identifiers: ["m", "f"],
    addressIdentifiers: [USER],
    functionDefs: [
      { function: 0, visibility: 0, isEntry: false, acquiresGlobalResources: [], code: { locals: 0, code } }
    ]
  })

/** T1/T2 reduction of the blocks reachable from the entry: reducible iff only the entry is left. */
const reducibleByReduction = (cfg: ControlFlowGraph): boolean => {
  const succ = new Map<number, Set<number>>()
  const pending = [0]
  while (pending.length > 0) {
    const b = pending.pop()!
    if (succ.has(b)) continue
    succ.set(b, new Set(cfg.successors[b]))
    pending.push(...cfg.successors[b]!)
  }
  const predsOf = (v: number) => [...succ].filter(([, s]) => s.has(v)).map(([u]) => u)
  for (let changed = true; changed; ) {
    changed = false
    for (const [v, s] of succ) s.delete(v) // T1
    for (const v of [...succ.keys()]) {
      if (v === 0) continue
      const preds = predsOf(v)
      if (preds.length !== 1) continue
      const u = preds[0]! // T2: v folded into its only predecessor
      const us = succ.get(u)!
      us.delete(v)
      for (const w of succ.get(v)!) us.add(w)
      succ.delete(v)
      changed = true
    }
  }
  return succ.size === 1
}

describe("loops", () => {
  it("a loop, and loops nested five deep, are accepted; six deep is LOOP_MAX_DEPTH_REACHED at the innermost head", () => {
    expect(loopFailure(buildControlFlowGraph(nested(1)))).toBeUndefined()
    expect(loopFailure(buildControlFlowGraph(nested(MAX_LOOP_DEPTH)))).toBeUndefined()
    const six = nested(MAX_LOOP_DEPTH + 1)
    expect(loopFailure(buildControlFlowGraph(six))).toMatchObject({ status: "LOOP_MAX_DEPTH_REACHED", offset: 0 })
    expect(verifyControlFlow(withBody(six))).toMatchObject({ status: "LOOP_MAX_DEPTH_REACHED", functionDef: 0 })
  })

  it("a loop entered in two places is INVALID_LOOP_SPLIT", () => {
    // The entry branches into X (fall through) and into Y; X and Y branch to each other.
    const code = [
      op(Opcode.LdTrue),
      to(Opcode.BrTrue, 5),
      op(Opcode.LdTrue), // X
      to(Opcode.BrTrue, 5),
      op(Opcode.Ret),
      op(Opcode.LdTrue), // Y
      to(Opcode.BrTrue, 2),
      op(Opcode.Ret)
    ]
    expect(loopFailure(buildControlFlowGraph(code))).toMatchObject({ status: "INVALID_LOOP_SPLIT" })
    expect(reducibleByReduction(buildControlFlowGraph(code))).toBe(false)
  })

  it("a module function of more than 1,024 blocks is TOO_MANY_BASIC_BLOCKS; 1,024 verify", () => {
    // Each `LdTrue; BrFalse next` pair ends a block.
    const blocks = (n: number): Instruction[] => {
      const code: Instruction[] = []
      for (let i = 0; i < n - 1; i++) code.push(op(Opcode.LdTrue), to(Opcode.BrFalse, 2 * i + 2))
      code.push(op(Opcode.Ret))
      return code
    }
    expect(buildControlFlowGraph(blocks(MAX_BASIC_BLOCKS)).starts.length).toBe(MAX_BASIC_BLOCKS)
    expect(verifyControlFlow(withBody(blocks(MAX_BASIC_BLOCKS)))).toBeUndefined()
    expect(verifyControlFlow(withBody(blocks(MAX_BASIC_BLOCKS + 1)))).toMatchObject({ status: "TOO_MANY_BASIC_BLOCKS" })
    // Scripts have no block limit (the reference's production configuration sets none).
    expect(verifyControlFlow(withBody(blocks(MAX_BASIC_BLOCKS + 1)), true)).toBeUndefined()
  })

  it("on random bodies the verdict agrees with the T1/T2 reduction, and nothing throws", () => {
    const instruction = (n: number) =>
      fc.oneof(
        fc.constant(op(Opcode.LdTrue)),
        fc.constant(op(Opcode.Ret)),
        fc.integer({ min: 0, max: n - 1 }).map((t) => to(Opcode.Branch, t)),
        fc.integer({ min: 0, max: n - 1 }).map((t) => to(Opcode.BrTrue, t)),
        // Stray targets (the deserializer refuses them; the graph must not trip over them).
        fc.integer({ min: -3, max: n + 3 }).map((t) => to(Opcode.BrFalse, t))
      )
    let irreducible = 0
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 24 }).chain((n) => fc.array(instruction(n), { minLength: n, maxLength: n })),
        (code) => {
          const cfg = buildControlFlowGraph(code)
          const f = loopFailure(cfg)
          if (f?.status === "LOOP_MAX_DEPTH_REACHED") return
          const reducible = reducibleByReduction(cfg)
          if (!reducible) irreducible++
          expect(f === undefined).toBe(reducible)
        }
      ),
      { numRuns: 3000, seed: 0x10095 }
    )
    // The generator reaches both verdicts.
    expect(irreducible).toBeGreaterThan(50)
  })
})
