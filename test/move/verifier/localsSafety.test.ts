import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { CompiledModule, Instruction } from "../../../src/move/binary/CompiledModule.js"
import { Opcode } from "../../../src/move/binary/Opcode.js"
import { primitiveTokens as P, type SignatureToken } from "../../../src/move/binary/SignatureToken.js"
import { verifyLocalsSafety } from "../../../src/move/verifier/localsSafety.js"
import { verifyTypeSafety } from "../../../src/move/verifier/typeSafety.js"
import { ALL_GENESIS, describeEachGenesis } from "../../support/genesis.js"
import { functionHandle, ix, ldU64, moduleOf, op } from "../../support/moveAssembly.js"
import { describeRefusal, frameworkOf, reread, USER } from "./support.js"

describeEachGenesis(ALL_GENESIS, "%s genesis: locals safety accepts the framework", (net) => {
  const modules = frameworkOf(net)

  it("never throws on type-safe mutations of framework bodies", () => {
    const withCode = modules.filter((m) => m.functionDefs.some((d) => d.code !== undefined && d.code.code.length > 0))
    let fed = 0
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: withCode.length - 1 }),
        fc.array(localsMutationArb, { minLength: 1, maxLength: 3 }),
        (mi, mutations) => {
          const r = reread(mutate(withCode[mi]!, mutations))
          if (r === undefined || verifyTypeSafety(r) !== undefined) return
          fed++
          const f = verifyLocalsSafety(r)
          // Type-safe code never breaks the pass's invariants (that status means a fault of ours).
          expect(f?.status).not.toBe("VERIFIER_INVARIANT_VIOLATION")
        }
      ),
      { numRuns: 400 }
    )
    expect(fed).toBeGreaterThan(20)
  })
})

// ---------------------------------------------------------------------------------------------
// Targeted cases

/**
 * `0xbeef::t` with `S { value: u64 }` (abilities `abilities`, default none) and one function
 * `f(params): returns` with extra `locals` and `code`.
 */
const single = (parts: {
  readonly params?: ReadonlyArray<SignatureToken>
  readonly returns?: ReadonlyArray<SignatureToken>
  readonly locals?: ReadonlyArray<SignatureToken>
  readonly abilities?: number
  readonly code: ReadonlyArray<Instruction>
}): CompiledModule =>
  moduleOf({
    moduleHandles: [{ address: 0, name: 0 }],
    structHandles: [{ module: 0, name: 1, abilities: parts.abilities ?? 0, typeParameters: [] }],
    functionHandles: [functionHandle(0, 2, 1, 2)],
    signatures: [[], [...(parts.params ?? [])], [...(parts.returns ?? [])], [...(parts.locals ?? [])]],
    identifiers: ["t", "S", "f", "value"],
    addressIdentifiers: [USER],
    structDefs: [{ structHandle: 0, fieldInformation: { _tag: "Declared", fields: [{ name: 3, type: P.U64 }] } }],
    fieldHandles: [{ owner: 0, field: 0 }],
    functionDefs: [
      {
        function: 0,
        visibility: 1,
        isEntry: false,
        acquiresGlobalResources: [],
        code: { locals: 3, code: [...parts.code] }
      }
    ]
  })

const S: SignatureToken = { _tag: "Struct", handle: 0 }
const br = (o: Opcode.Branch | Opcode.BrTrue | Opcode.BrFalse, offset: number): Instruction =>
  ({ op: o, offset }) as Instruction

/** The status of locals safety, after checking the case is type-safe (so only this pass can refuse it). */
const statusOf = (m: CompiledModule): string | undefined => {
  const typed = verifyTypeSafety(m)
  if (typed !== undefined) throw new Error(`the case is not type-safe: ${describeRefusal(m, typed)}`)
  return verifyLocalsSafety(m)?.status
}

describe("locals safety refuses", () => {
  it("StLoc over a local holding a value without drop", () => {
    const m = single({
      params: [S, S],
      returns: [S],
      code: [ix(Opcode.MoveLoc, 1), ix(Opcode.StLoc, 0), ix(Opcode.MoveLoc, 0), op(Opcode.Ret)]
    })
    expect(statusOf(m)).toBe("STLOC_UNSAFE_TO_DESTROY_ERROR")
    // With drop, overwriting is fine.
    expect(statusOf({ ...m, structHandles: [{ ...m.structHandles[0]!, abilities: 0x2 }] })).toBe(undefined)
  })

  it("Ret while a local holds a value without drop", () => {
    expect(statusOf(single({ params: [S], code: [op(Opcode.Ret)] }))).toBe("UNSAFE_RET_UNUSED_VALUES_WITHOUT_DROP")
    expect(
      statusOf(
        single({ params: [S], code: [ix(Opcode.MoveLoc, 0), ix(Opcode.Unpack, 0), op(Opcode.Pop), op(Opcode.Ret)] })
      )
    ).toBe(undefined)
  })

  it("MoveLoc, CopyLoc and borrow of a moved local", () => {
    const moved = (use: Instruction, more: Instruction[]) =>
      single({
        params: [P.U64],
        returns: [P.U64],
        code: [ix(Opcode.MoveLoc, 0), op(Opcode.Pop), use, ...more, op(Opcode.Ret)]
      })
    expect(statusOf(moved(ix(Opcode.MoveLoc, 0), []))).toBe("MOVELOC_UNAVAILABLE_ERROR")
    expect(statusOf(moved(ix(Opcode.CopyLoc, 0), []))).toBe("COPYLOC_UNAVAILABLE_ERROR")
    expect(statusOf(moved(ix(Opcode.ImmBorrowLoc, 0), [op(Opcode.ReadRef)]))).toBe("BORROWLOC_UNAVAILABLE_ERROR")
    // A declared local that was never assigned.
    expect(statusOf(single({ locals: [P.U64], returns: [P.U64], code: [ix(Opcode.CopyLoc, 0), op(Opcode.Ret)] }))).toBe(
      "COPYLOC_UNAVAILABLE_ERROR"
    )
  })

  it("a local assigned on one branch only (maybe available)", () => {
    // if (c) x = 1; return x
    const m = single({
      params: [P.Bool],
      locals: [P.U64],
      returns: [P.U64],
      code: [
        ix(Opcode.MoveLoc, 0),
        br(Opcode.BrFalse, 4),
        ldU64(1n),
        ix(Opcode.StLoc, 1),
        ix(Opcode.MoveLoc, 1),
        op(Opcode.Ret)
      ]
    })
    expect(statusOf(m)).toBe("MOVELOC_UNAVAILABLE_ERROR")
  })

  it("a non-drop value left behind by a loop's second iteration", () => {
    // loop { x = s (moved on the first iteration only) } — the join at the head makes s maybe available.
    const m = single({
      params: [S, P.Bool],
      locals: [S],
      returns: [S],
      code: [
        ix(Opcode.MoveLoc, 0), // 0
        ix(Opcode.StLoc, 2), // 1
        ix(Opcode.CopyLoc, 1), // 2: loop head
        br(Opcode.BrFalse, 6), // 3
        ix(Opcode.MoveLoc, 2), // 4
        ix(Opcode.StLoc, 0), // 5 (the loop does not go back; s is reassigned)
        ix(Opcode.MoveLoc, 2), // 6: unavailable on the path through 4-5
        op(Opcode.Ret)
      ]
    })
    expect(statusOf(m)).toBe("MOVELOC_UNAVAILABLE_ERROR")
  })
})

describe("locals safety accepts", () => {
  it("a local assigned on both branches", () => {
    const m = single({
      params: [P.Bool],
      locals: [P.U64],
      returns: [P.U64],
      code: [
        ix(Opcode.MoveLoc, 0),
        br(Opcode.BrFalse, 5),
        ldU64(1n),
        ix(Opcode.StLoc, 1),
        br(Opcode.Branch, 7),
        ldU64(2n),
        ix(Opcode.StLoc, 1),
        ix(Opcode.MoveLoc, 1),
        op(Opcode.Ret)
      ]
    })
    expect(statusOf(m)).toBe(undefined)
  })

  it("a loop that moves and reassigns a non-drop local each iteration", () => {
    // while (c) { s = id(s) } as MoveLoc s; StLoc tmp; MoveLoc tmp; StLoc s
    const m = single({
      params: [S, P.Bool],
      locals: [S],
      returns: [S],
      code: [
        ix(Opcode.CopyLoc, 1), // 0: head
        br(Opcode.BrFalse, 7), // 1
        ix(Opcode.MoveLoc, 0), // 2
        ix(Opcode.StLoc, 2), // 3
        ix(Opcode.MoveLoc, 2), // 4
        ix(Opcode.StLoc, 0), // 5
        br(Opcode.Branch, 0), // 6
        ix(Opcode.MoveLoc, 0), // 7
        op(Opcode.Ret)
      ]
    })
    expect(statusOf(m)).toBe(undefined)
  })

  it("an abort with non-drop locals still held, and unreachable code", () => {
    // The dead block would copy a never-assigned local: blocks no path reaches are not analysed.
    const m = single({
      params: [S],
      locals: [P.U64],
      code: [ldU64(1n), op(Opcode.Abort), ix(Opcode.CopyLoc, 1), op(Opcode.Pop), op(Opcode.Ret)]
    })
    expect(statusOf(m)).toBe(undefined)
  })
})

// ---------------------------------------------------------------------------------------------
// Mutations that keep bodies type-safe more often than random instructions would

interface Mutation {
  readonly fn: number
  readonly at: number
  readonly kind: "retarget" | "swapLoc" | "delete" | "duplicate" | "insert"
  readonly value: number
}
const localsMutationArb: fc.Arbitrary<Mutation> = fc.record({
  fn: fc.nat(),
  at: fc.nat(),
  kind: fc.constantFrom(
    "retarget" as const,
    "swapLoc" as const,
    "delete" as const,
    "duplicate" as const,
    "insert" as const
  ),
  value: fc.nat({ max: 60 })
})

const LOCAL_OPS = [Opcode.MoveLoc, Opcode.CopyLoc, Opcode.StLoc, Opcode.ImmBorrowLoc, Opcode.MutBorrowLoc]

const mutate = (m: CompiledModule, mutations: ReadonlyArray<Mutation>): CompiledModule => {
  const defs = m.functionDefs.map((d) =>
    d.code === undefined ? d : { ...d, code: { ...d.code, code: [...d.code.code] } }
  )
  const withCode = defs.filter((d) => d.code !== undefined && d.code.code.length > 0)
  for (const mu of mutations) {
    const code = withCode[mu.fn % withCode.length]!.code!.code as Instruction[]
    const at = mu.at % code.length
    const ins = code[at]!
    switch (mu.kind) {
      case "retarget":
        if (ins.op === Opcode.Branch || ins.op === Opcode.BrTrue || ins.op === Opcode.BrFalse)
          code[at] = { ...ins, offset: mu.value % code.length } as Instruction
        break
      case "swapLoc":
        if (LOCAL_OPS.includes(ins.op))
          code[at] = {
            op: LOCAL_OPS[mu.value % LOCAL_OPS.length]!,
            index: (ins as { index: number }).index
          } as Instruction
        break
      case "delete":
        if (code.length > 1) code.splice(at, 1)
        break
      case "duplicate":
        code.splice(at, 0, ins)
        break
      case "insert":
        code.splice(
          at,
          0,
          { op: mu.value % 2 === 0 ? Opcode.MoveLoc : Opcode.CopyLoc, index: mu.value % 4 } as Instruction,
          { op: Opcode.StLoc, index: (mu.value >> 2) % 4 } as Instruction
        )
        break
    }
  }
  return { ...m, functionDefs: defs }
}
