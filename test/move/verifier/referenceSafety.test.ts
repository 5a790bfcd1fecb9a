import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { CompiledModule, Instruction } from "../../../src/move/binary/CompiledModule.js"
import { Opcode } from "../../../src/move/binary/Opcode.js"
import { serializeModule } from "../../../src/move/binary/serialize.js"
import { primitiveTokens as P, type SignatureToken } from "../../../src/move/binary/SignatureToken.js"
import { verifyLocalsSafety } from "../../../src/move/verifier/localsSafety.js"
import { verifyReferenceSafety } from "../../../src/move/verifier/referenceSafety.js"
import { verifyAcquires } from "../../../src/move/verifier/referenceSafetyAcquires.js"
import { verifyTypeSafety } from "../../../src/move/verifier/typeSafety.js"
import { ALL_GENESIS, describeEachGenesis } from "../../support/genesis.js"
import { functionHandle, ix, ldU64, moduleOf, op } from "../../support/moveAssembly.js"
import { describeRefusal, frameworkOf, moduleFrom, reread, USER } from "./support.js"
import { danglingModule } from "../../support/hostileModules.js"

describeEachGenesis(ALL_GENESIS, "%s genesis: reference safety accepts the framework", (net) => {
  const modules = frameworkOf(net)

  it("never throws on type-safe mutations of framework bodies (its work is metered, not timed)", () => {
    const withCode = modules.filter((m) => m.functionDefs.some((d) => d.code !== undefined && d.code.code.length > 0))
    let fed = 0
    const statuses = new Set<string>()
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: withCode.length - 1 }),
        fc.array(mutationArb, { minLength: 1, maxLength: 3 }),
        (mi, mutations) => {
          const r = reread(mutate(withCode[mi]!, mutations))
          if (r === undefined || verifyTypeSafety(r) !== undefined) return
          fed++
          const f = verifyReferenceSafety(r)
          const l = verifyLocalsSafety(r)
          // Code that passes the passes before it (type safety, then locals safety, the reference's
          // order) never breaks reference safety's invariants: that status would be a fault of ours.
          expect(l?.status).not.toBe("VERIFIER_INVARIANT_VIOLATION")
          if (l === undefined) expect(f?.status).not.toBe("VERIFIER_INVARIANT_VIOLATION")
          if (l === undefined && f !== undefined) statuses.add(f.status)
        }
      ),
      // A fixed seed (MUTANTS_SEED to explore others): the last assertion counts what the mutants
      // reached, and an unlucky draw over mainnet's 70 modules sometimes reached no refusal.
      { numRuns: Number(process.env.MUTANTS ?? 500), seed: Number(process.env.MUTANTS_SEED ?? 34) }
    )
    expect(fed).toBeGreaterThan(20)
    console.log(`${net}: ${fed} type-safe mutants; reference safety refusals: ${[...statuses].join(", ") || "none"}`)
    // The mutants reach the borrow rules (mostly through `borrowAtEntry`), not only the acceptance path.
    expect(statuses.size).toBeGreaterThan(0)
  })
})

// ---------------------------------------------------------------------------------------------
// The dangling reference that doubled money (test/support/hostileModules.ts)

describe("the dangling reference into a moved wallet", () => {
  it("passes type and locals safety, and reference safety refuses it with MOVELOC_EXISTS_BORROW_ERROR", () => {
    const m = moduleFrom(serializeModule(danglingModule(USER)))
    expect(verifyTypeSafety(m)).toBe(undefined)
    expect(verifyLocalsSafety(m)).toBe(undefined)
    const f = verifyReferenceSafety(m)
    expect(f?.status).toBe("MOVELOC_EXISTS_BORROW_ERROR")
    expect(f?.offset).toBe(8)
  })

  it("is accepted once the reference is dropped before the move", () => {
    const m = moduleFrom(serializeModule(danglingModule(USER, true)))
    expect(verifyTypeSafety(m)).toBe(undefined)
    expect(verifyReferenceSafety(m)).toBe(undefined)
  })
})

// ---------------------------------------------------------------------------------------------
// Targeted cases

const S: SignatureToken = { _tag: "Struct", handle: 0 }
const mutU64: SignatureToken = { _tag: "MutableReference", to: P.U64 }
const refU64: SignatureToken = { _tag: "Reference", to: P.U64 }
const vecU64: SignatureToken = { _tag: "Vector", element: P.U64 }
const twoFn: SignatureToken = { _tag: "Function", args: [mutU64, mutU64], results: [], abilities: 0x2 }
const br = (o: Opcode.Branch | Opcode.BrTrue | Opcode.BrFalse, offset: number): Instruction =>
  ({ op: o, offset }) as Instruction

/**
 * `0xbeef::t` with `S has key { value: u64 }` and `f(params): returns` (extra `locals`, `code`) as
 * function 0; the helpers are `two(&mut u64, &mut u64)` (handle 1), `id(&mut u64): &mut u64`
 * (handle 2), `acq() acquires S` (handle 3), signature 7 is `[u64]` for vector instructions and
 * signature 8 `[|&mut u64, &mut u64|]` for CallClosure (bytecode v10 with `version: 10`).
 */
const single = (parts: {
  readonly params?: ReadonlyArray<SignatureToken>
  readonly returns?: ReadonlyArray<SignatureToken>
  readonly locals?: ReadonlyArray<SignatureToken>
  readonly code: ReadonlyArray<Instruction>
  readonly version?: number
}): CompiledModule =>
  moduleOf({
    version: parts.version ?? 7,
    moduleHandles: [{ address: 0, name: 0 }],
    structHandles: [{ module: 0, name: 1, abilities: 0x8, typeParameters: [] }],
    functionHandles: [
      functionHandle(0, 2, 1, 2),
      functionHandle(0, 4, 4, 0),
      functionHandle(0, 5, 5, 6),
      functionHandle(0, 6, 0, 0)
    ],
    signatures: [
      [],
      [...(parts.params ?? [])],
      [...(parts.returns ?? [])],
      [...(parts.locals ?? [])],
      [mutU64, mutU64],
      [mutU64],
      [mutU64],
      [P.U64],
      [twoFn]
    ],
    identifiers: ["t", "S", "f", "value", "two", "id", "acq"],
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
      },
      {
        function: 1,
        visibility: 1,
        isEntry: false,
        acquiresGlobalResources: [],
        code: {
          locals: 0,
          code: [ix(Opcode.MoveLoc, 0), op(Opcode.Pop), ix(Opcode.MoveLoc, 1), op(Opcode.Pop), op(Opcode.Ret)]
        }
      },
      {
        function: 2,
        visibility: 1,
        isEntry: false,
        acquiresGlobalResources: [],
        code: { locals: 0, code: [ix(Opcode.MoveLoc, 0), op(Opcode.Ret)] }
      },
      {
        function: 3,
        visibility: 1,
        isEntry: false,
        acquiresGlobalResources: [0],
        code: { locals: 0, code: [op(Opcode.Ret)] }
      }
    ]
  })

/** The status of reference safety, after checking the case is type-safe (only this pass may refuse it). */
const statusOf = (m: CompiledModule): string | undefined => {
  const typed = verifyTypeSafety(m)
  if (typed !== undefined) throw new Error(`the case is not type-safe: ${describeRefusal(m, typed)}`)
  return verifyReferenceSafety(m)?.status
}

describe("reference safety refuses", () => {
  it("StLoc over a borrowed local, MoveLoc of a borrowed local, CopyLoc of a mutably borrowed one", () => {
    const borrowThen = (mutable: boolean, then: Instruction[]) =>
      single({
        locals: [P.U64, mutable ? mutU64 : refU64],
        code: [
          ldU64(0n),
          ix(Opcode.StLoc, 0),
          ix(mutable ? Opcode.MutBorrowLoc : Opcode.ImmBorrowLoc, 0),
          ix(Opcode.StLoc, 1),
          ...then,
          op(Opcode.Ret)
        ]
      })
    expect(statusOf(borrowThen(false, [ldU64(1n), ix(Opcode.StLoc, 0)]))).toBe("STLOC_UNSAFE_TO_DESTROY_ERROR")
    expect(statusOf(borrowThen(false, [ix(Opcode.MoveLoc, 0), op(Opcode.Pop)]))).toBe("MOVELOC_EXISTS_BORROW_ERROR")
    expect(statusOf(borrowThen(true, [ix(Opcode.CopyLoc, 0), op(Opcode.Pop)]))).toBe("COPYLOC_EXISTS_BORROW_ERROR")
    expect(statusOf(borrowThen(true, [ix(Opcode.ImmBorrowLoc, 0), op(Opcode.Pop)]))).toBe(
      "BORROWLOC_EXISTS_BORROW_ERROR"
    )
    // Copying an immutably borrowed local is fine, and so is anything once the borrow is gone.
    expect(statusOf(borrowThen(false, [ix(Opcode.CopyLoc, 0), op(Opcode.Pop)]))).toBe(undefined)
    expect(
      statusOf(borrowThen(false, [ix(Opcode.MoveLoc, 1), op(Opcode.Pop), ix(Opcode.MoveLoc, 0), op(Opcode.Pop)]))
    ).toBe(undefined)
  })

  it("WriteRef while the target is borrowed", () => {
    const write = (releaseFirst: boolean) =>
      single({
        locals: [P.U64, mutU64, refU64],
        code: [
          ldU64(0n),
          ix(Opcode.StLoc, 0),
          ix(Opcode.MutBorrowLoc, 0),
          ix(Opcode.StLoc, 1),
          ix(Opcode.CopyLoc, 1),
          op(Opcode.FreezeRef),
          ix(Opcode.StLoc, 2),
          ...(releaseFirst ? [ix(Opcode.MoveLoc, 2), op(Opcode.Pop)] : []),
          ldU64(5n),
          ix(Opcode.MoveLoc, 1),
          op(Opcode.WriteRef),
          op(Opcode.Ret)
        ]
      })
    expect(statusOf(write(false))).toBe("WRITEREF_EXISTS_BORROW_ERROR")
    expect(statusOf(write(true))).toBe(undefined)
  })

  it("FreezeRef, ReadRef, Eq and immutable field borrows while mutably borrowed", () => {
    const mutS: SignatureToken = { _tag: "MutableReference", to: S }
    const freeze = single({
      params: [mutS],
      locals: [mutU64],
      code: [
        ix(Opcode.CopyLoc, 0),
        ix(Opcode.MutBorrowField, 0),
        ix(Opcode.StLoc, 1),
        ix(Opcode.MoveLoc, 0),
        op(Opcode.FreezeRef),
        op(Opcode.Pop),
        ix(Opcode.MoveLoc, 1),
        op(Opcode.Pop),
        op(Opcode.Ret)
      ]
    })
    expect(statusOf(freeze)).toBe("FREEZEREF_EXISTS_MUTABLE_BORROW_ERROR")
    const field = single({
      params: [mutS],
      locals: [mutU64],
      code: [
        ix(Opcode.CopyLoc, 0),
        ix(Opcode.MutBorrowField, 0),
        ix(Opcode.StLoc, 1),
        ix(Opcode.MoveLoc, 0),
        ix(Opcode.ImmBorrowField, 0),
        op(Opcode.Pop),
        ix(Opcode.MoveLoc, 1),
        op(Opcode.Pop),
        op(Opcode.Ret)
      ]
    })
    expect(statusOf(field)).toBe("BORROWFIELD_EXISTS_MUTABLE_BORROW_ERROR")
    const read = single({
      params: [mutU64],
      locals: [mutU64],
      returns: [P.U64],
      code: [
        ix(Opcode.CopyLoc, 0),
        ix(Opcode.StLoc, 1),
        ix(Opcode.MoveLoc, 0),
        op(Opcode.ReadRef),
        ix(Opcode.MoveLoc, 1),
        op(Opcode.Pop),
        op(Opcode.Ret)
      ]
    })
    expect(statusOf(read)).toBe("READREF_EXISTS_MUTABLE_BORROW_ERROR")
    const eq = single({
      params: [mutU64],
      locals: [mutU64],
      returns: [P.Bool],
      code: [
        ix(Opcode.CopyLoc, 0),
        ix(Opcode.StLoc, 1),
        ix(Opcode.MoveLoc, 0),
        ix(Opcode.CopyLoc, 1),
        op(Opcode.Eq),
        ix(Opcode.MoveLoc, 1),
        op(Opcode.Pop),
        op(Opcode.Ret)
      ]
    })
    expect(statusOf(eq)).toBe("READREF_EXISTS_MUTABLE_BORROW_ERROR")
  })

  it("MoveFrom, BorrowGlobal and a call acquiring the global while it is borrowed", () => {
    const borrowed = (then: Instruction[], mutable = false) =>
      single({
        params: [P.Address],
        locals: [{ _tag: mutable ? "MutableReference" : "Reference", to: S }],
        code: [
          ix(Opcode.CopyLoc, 0),
          ix(mutable ? Opcode.MutBorrowGlobal : Opcode.ImmBorrowGlobal, 0),
          ix(Opcode.StLoc, 1),
          ...then,
          op(Opcode.Ret)
        ]
      })
    const moveFrom = [ix(Opcode.CopyLoc, 0), ix(Opcode.MoveFrom, 0), ix(Opcode.Unpack, 0), op(Opcode.Pop)]
    const release = [ix(Opcode.MoveLoc, 1), op(Opcode.Pop)]
    expect(statusOf(borrowed([...moveFrom, ...release]))).toBe("GLOBAL_REFERENCE_ERROR")
    expect(statusOf(borrowed([...release, ...moveFrom]))).toBe(undefined)
    expect(statusOf(borrowed([ix(Opcode.CopyLoc, 0), ix(Opcode.MutBorrowGlobal, 0), op(Opcode.Pop), ...release]))).toBe(
      "GLOBAL_REFERENCE_ERROR"
    )
    expect(
      statusOf(borrowed([ix(Opcode.CopyLoc, 0), ix(Opcode.ImmBorrowGlobal, 0), op(Opcode.Pop), ...release], true))
    ).toBe("GLOBAL_REFERENCE_ERROR")
    // Two immutable borrows of one global are fine.
    expect(statusOf(borrowed([ix(Opcode.CopyLoc, 0), ix(Opcode.ImmBorrowGlobal, 0), op(Opcode.Pop), ...release]))).toBe(
      undefined
    )
    expect(statusOf(borrowed([ix(Opcode.Call, 3), ...release]))).toBe("GLOBAL_REFERENCE_ERROR")
    expect(statusOf(borrowed([...release, ix(Opcode.Call, 3)]))).toBe(undefined)
  })

  it("returning a reference to a local, or with a local borrowed", () => {
    expect(
      statusOf(single({ params: [P.U64], returns: [refU64], code: [ix(Opcode.ImmBorrowLoc, 0), op(Opcode.Ret)] }))
    ).toBe("UNSAFE_RET_LOCAL_OR_RESOURCE_STILL_BORROWED")
    // A reference into a reference parameter may be returned.
    const refS: SignatureToken = { _tag: "Reference", to: S }
    expect(
      statusOf(
        single({
          params: [refS],
          returns: [refU64],
          code: [ix(Opcode.MoveLoc, 0), ix(Opcode.ImmBorrowField, 0), op(Opcode.Ret)]
        })
      )
    ).toBe(undefined)
    // A mutable reference that is itself borrowed (by the copy kept in a local... returned alongside).
    const twice = single({
      params: [mutU64],
      returns: [mutU64, mutU64],
      code: [ix(Opcode.CopyLoc, 0), ix(Opcode.MoveLoc, 0), op(Opcode.Ret)]
    })
    expect(statusOf(twice)).toBe("RET_BORROWED_MUTABLE_REFERENCE_ERROR")
  })

  it("a mutable reference passed twice to one call", () => {
    const viaCopy = single({
      locals: [P.U64, mutU64],
      code: [
        ldU64(0n),
        ix(Opcode.StLoc, 0),
        ix(Opcode.MutBorrowLoc, 0),
        ix(Opcode.StLoc, 1),
        ix(Opcode.CopyLoc, 1),
        ix(Opcode.MoveLoc, 1),
        ix(Opcode.Call, 1),
        op(Opcode.Ret)
      ]
    })
    expect(statusOf(viaCopy)).toBe("CALL_BORROWED_MUTABLE_REFERENCE_ERROR")
    const twoBorrows = single({
      locals: [P.U64],
      code: [
        ldU64(0n),
        ix(Opcode.StLoc, 0),
        ix(Opcode.MutBorrowLoc, 0),
        ix(Opcode.MutBorrowLoc, 0),
        ix(Opcode.Call, 1),
        op(Opcode.Ret)
      ]
    })
    expect(statusOf(twoBorrows)).toBe("CALL_BORROWED_MUTABLE_REFERENCE_ERROR")
    // Two different locals are fine.
    const distinct = single({
      locals: [P.U64, P.U64],
      code: [
        ldU64(0n),
        ix(Opcode.StLoc, 0),
        ldU64(0n),
        ix(Opcode.StLoc, 1),
        ix(Opcode.MutBorrowLoc, 0),
        ix(Opcode.MutBorrowLoc, 1),
        ix(Opcode.Call, 1),
        op(Opcode.Ret)
      ]
    })
    expect(statusOf(distinct)).toBe(undefined)
  })

  it("a vector updated while an element is borrowed", () => {
    const mutVec: SignatureToken = { _tag: "MutableReference", to: vecU64 }
    const push = (releaseFirst: boolean) =>
      single({
        params: [mutVec],
        locals: [mutU64],
        code: [
          ix(Opcode.CopyLoc, 0),
          ldU64(0n),
          ix(Opcode.VecMutBorrow, 7),
          ix(Opcode.StLoc, 1),
          ...(releaseFirst ? [ix(Opcode.MoveLoc, 1), op(Opcode.Pop)] : []),
          ix(Opcode.MoveLoc, 0),
          ldU64(1n),
          ix(Opcode.VecPushBack, 7),
          ...(releaseFirst ? [] : [ix(Opcode.MoveLoc, 1), op(Opcode.Pop)]),
          op(Opcode.Ret)
        ]
      })
    expect(statusOf(push(false))).toBe("VEC_UPDATE_EXISTS_MUTABLE_BORROW_ERROR")
    expect(statusOf(push(true))).toBe(undefined)
  })
})

describe("reference safety refuses (closures, complexity)", () => {
  it("a closure called with one local mutably borrowed twice", () => {
    const closureCall = (second: number) =>
      single({
        version: 10,
        locals: [P.U64, P.U64],
        code: [
          ldU64(0n),
          ix(Opcode.StLoc, 0),
          ldU64(0n),
          ix(Opcode.StLoc, 1),
          ix(Opcode.MutBorrowLoc, 0),
          ix(Opcode.MutBorrowLoc, second),
          { op: Opcode.PackClosure, index: 1, mask: 0n } as Instruction,
          ix(Opcode.CallClosure, 8),
          op(Opcode.Ret)
        ]
      })
    expect(statusOf(closureCall(0))).toBe("CALL_BORROWED_MUTABLE_REFERENCE_ERROR")
    expect(statusOf(closureCall(1))).toBe(undefined)
  })

  it("a function past the reference's work bound (CONSTRAINT_NOT_SATISFIED)", () => {
    // 255 locals make every step cost 5,110 units; 16,000 steps pass the 80,000,000 bound.
    const code: Instruction[] = []
    for (let i = 0; i < 8000; i++) code.push(ldU64(1n), op(Opcode.Pop))
    code.push(op(Opcode.Ret))
    const heavy = single({ locals: new Array<SignatureToken>(255).fill(P.U64), code })
    expect(statusOf(heavy)).toBe("CONSTRAINT_NOT_SATISFIED")
    expect(statusOf(single({ locals: new Array<SignatureToken>(255).fill(P.U64), code: code.slice(-2001) }))).toBe(
      undefined
    )
  })
})

describe("acquires lists", () => {
  /**
   * `single`'s module with function 0 acquiring `acquires` (struct definitions) and running `code`;
   * `acq` (function 3) is made native, so that its own list (S) needs no code behind it.
   */
  const acquiring = (acquires: number[], code: Instruction[]): CompiledModule => {
    const m = single({ params: [P.Address], code })
    const [f, two, id, acq] = m.functionDefs
    return {
      ...m,
      functionDefs: [{ ...f!, acquiresGlobalResources: acquires }, two!, id!, { ...acq!, code: undefined }]
    }
  }
  const borrow = [ix(Opcode.CopyLoc, 0), ix(Opcode.ImmBorrowGlobal, 0), op(Opcode.Pop), op(Opcode.Ret)]
  it("accepts an exact list, direct or through a call to this module", () => {
    expect(verifyAcquires(acquiring([0], borrow))).toBe(undefined)
    expect(verifyAcquires(acquiring([0], [ix(Opcode.Call, 3), op(Opcode.Ret)]))).toBe(undefined)
  })
  it("refuses a missing, extraneous or duplicate entry", () => {
    expect(verifyAcquires(acquiring([], borrow))?.status).toBe("MISSING_ACQUIRES_ANNOTATION")
    expect(verifyAcquires(acquiring([], [ix(Opcode.Call, 3), op(Opcode.Ret)]))?.status).toBe(
      "MISSING_ACQUIRES_ANNOTATION"
    )
    expect(verifyAcquires(acquiring([0], [op(Opcode.Ret)]))?.status).toBe("EXTRANEOUS_ACQUIRES_ANNOTATION")
    expect(verifyAcquires(acquiring([0, 0], borrow))?.status).toBe("DUPLICATE_ACQUIRES_ANNOTATION")
  })
})

describe("reference safety accepts", () => {
  it("a reference passed through a call and written through", () => {
    const m = single({
      locals: [P.U64, mutU64],
      code: [
        ldU64(0n),
        ix(Opcode.StLoc, 0),
        ix(Opcode.MutBorrowLoc, 0),
        ix(Opcode.Call, 2),
        ix(Opcode.StLoc, 1),
        ldU64(3n),
        ix(Opcode.MoveLoc, 1),
        op(Opcode.WriteRef),
        op(Opcode.Ret)
      ]
    })
    expect(statusOf(m)).toBe(undefined)
    // ...while the returned reference still borrows the local, the local may not move.
    const moved = single({
      locals: [P.U64, mutU64],
      code: [
        ldU64(0n),
        ix(Opcode.StLoc, 0),
        ix(Opcode.MutBorrowLoc, 0),
        ix(Opcode.Call, 2),
        ix(Opcode.StLoc, 1),
        ix(Opcode.MoveLoc, 0),
        op(Opcode.Pop),
        ix(Opcode.MoveLoc, 1),
        op(Opcode.Pop),
        op(Opcode.Ret)
      ]
    })
    expect(statusOf(moved)).toBe("MOVELOC_EXISTS_BORROW_ERROR")
  })

  it("a loop that borrows a local, writes through it and releases it each iteration", () => {
    const m = single({
      locals: [P.U64, mutU64],
      code: [
        ldU64(0n), // 0
        ix(Opcode.StLoc, 0), // 1
        ix(Opcode.MutBorrowLoc, 0), // 2: loop head
        ix(Opcode.StLoc, 1), // 3
        ldU64(1n), // 4
        ix(Opcode.MoveLoc, 1), // 5
        op(Opcode.WriteRef), // 6
        ix(Opcode.CopyLoc, 0), // 7
        ldU64(10n), // 8
        op(Opcode.Lt), // 9
        br(Opcode.BrTrue, 2), // 10
        op(Opcode.Ret) // 11
      ]
    })
    expect(statusOf(m)).toBe(undefined)
  })

  it("a loop that keeps a reference in a local across iterations (states joined at the head)", () => {
    const m = single({
      params: [P.Bool],
      locals: [P.U64, refU64],
      code: [
        ldU64(0n), // 0
        ix(Opcode.StLoc, 1), // 1
        ix(Opcode.ImmBorrowLoc, 1), // 2
        ix(Opcode.StLoc, 2), // 3
        ix(Opcode.CopyLoc, 0), // 4: loop head
        br(Opcode.BrFalse, 9), // 5
        ix(Opcode.ImmBorrowLoc, 1), // 6
        ix(Opcode.StLoc, 2), // 7: replaces (releases) the previous iteration's reference
        br(Opcode.Branch, 4), // 8
        ix(Opcode.MoveLoc, 2), // 9
        op(Opcode.Pop), // 10
        op(Opcode.Ret) // 11
      ]
    })
    expect(statusOf(m)).toBe(undefined)
  })

  it("a loop that would move a local still borrowed from the previous iteration is refused", () => {
    const m = single({
      params: [P.Bool],
      locals: [P.U64, refU64],
      code: [
        ldU64(0n), // 0
        ix(Opcode.StLoc, 1), // 1
        ix(Opcode.ImmBorrowLoc, 1), // 2
        ix(Opcode.StLoc, 2), // 3
        ix(Opcode.CopyLoc, 0), // 4: loop head
        br(Opcode.BrFalse, 11), // 5
        ix(Opcode.MoveLoc, 1), // 6: local 1 is borrowed by local 2
        ix(Opcode.StLoc, 1), // 7
        ix(Opcode.ImmBorrowLoc, 1), // 8
        ix(Opcode.StLoc, 2), // 9
        br(Opcode.Branch, 4), // 10
        ix(Opcode.MoveLoc, 2), // 11
        op(Opcode.Pop), // 12
        op(Opcode.Ret) // 13
      ]
    })
    expect(statusOf(m)).toBe("MOVELOC_EXISTS_BORROW_ERROR")
  })

  it("disjoint mutable borrows of two fields' worth of one struct, and field borrows after a release", () => {
    const mutS: SignatureToken = { _tag: "MutableReference", to: S }
    const m = single({
      params: [mutS],
      locals: [mutU64],
      returns: [P.U64],
      code: [
        ix(Opcode.CopyLoc, 0),
        ix(Opcode.MutBorrowField, 0),
        ix(Opcode.StLoc, 1),
        ldU64(7n),
        ix(Opcode.MoveLoc, 1),
        op(Opcode.WriteRef),
        ix(Opcode.MoveLoc, 0),
        ix(Opcode.ImmBorrowField, 0),
        op(Opcode.ReadRef),
        op(Opcode.Ret)
      ]
    })
    expect(statusOf(m)).toBe(undefined)
  })
})

// ---------------------------------------------------------------------------------------------
// Mutations that keep bodies type-safe more often than random instructions would

interface Mutation {
  readonly fn: number
  readonly at: number
  readonly kind: "retarget" | "swapLoc" | "delete" | "duplicate" | "swap" | "borrowAtEntry"
  readonly value: number
}
const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  fn: fc.nat(),
  at: fc.nat(),
  kind: fc.constantFrom(
    "retarget" as const,
    "swapLoc" as const,
    "delete" as const,
    "duplicate" as const,
    "swap" as const,
    "borrowAtEntry" as const,
    "borrowAtEntry" as const
  ),
  value: fc.nat({ max: 60 })
})

/**
 * `ImmBorrowLoc p; StLoc j` (or MutBorrowLoc) at offset 0, branch targets shifted: parameter p is
 * borrowed into a local j of the matching reference type for as long as j keeps it. Type-safe and
 * locals-safe by construction, it makes the body's later uses of p meet the borrow rules.
 */
const borrowAtEntry = (
  m: CompiledModule,
  def: CompiledModule["functionDefs"][number],
  pick: number
): Instruction[] | undefined => {
  const code = def.code!.code
  const params = m.signatures[m.functionHandles[def.function]!.parameters]!
  const all = [...params, ...m.signatures[def.code!.locals]!]
  const key = (t: SignatureToken) => JSON.stringify(t)
  const pairs: Array<[number, number, boolean]> = []
  params.forEach((t, p) => {
    if (t._tag === "Reference" || t._tag === "MutableReference") return
    all.forEach((u, j) => {
      if (j >= params.length && (u._tag === "Reference" || u._tag === "MutableReference") && key(u.to) === key(t))
        pairs.push([p, j, u._tag === "MutableReference"])
    })
  })
  const chosen = pairs[pick % Math.max(1, pairs.length)]
  if (chosen === undefined) return undefined
  const [p, j, mutable] = chosen
  const shifted = code.map((i) =>
    i.op === Opcode.Branch || i.op === Opcode.BrTrue || i.op === Opcode.BrFalse
      ? ({ ...i, offset: i.offset + 2 } as Instruction)
      : i
  )
  return [ix(mutable ? Opcode.MutBorrowLoc : Opcode.ImmBorrowLoc, p), ix(Opcode.StLoc, j), ...shifted]
}

const LOCAL_OPS = [Opcode.MoveLoc, Opcode.CopyLoc, Opcode.StLoc, Opcode.ImmBorrowLoc, Opcode.MutBorrowLoc]

const mutate = (m: CompiledModule, mutations: ReadonlyArray<Mutation>): CompiledModule => {
  const defs = m.functionDefs.map((d) =>
    d.code === undefined ? d : { ...d, code: { ...d.code, code: [...d.code.code] } }
  )
  const withCode = defs.filter((d) => d.code !== undefined && d.code.code.length > 0)
  for (const mu of mutations) {
    const def = withCode[mu.fn % withCode.length]!
    const code = def.code!.code as Instruction[]
    const at = mu.at % code.length
    const ins = code[at]!
    switch (mu.kind) {
      case "borrowAtEntry": {
        const borrowed = borrowAtEntry(m, def, mu.value)
        if (borrowed !== undefined) code.splice(0, code.length, ...borrowed)
        break
      }
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
      case "swap": {
        // Reorder two instructions: moves a release before or after a use.
        const other = (at + 1 + (mu.value % 5)) % code.length
        code[at] = code[other]!
        code[other] = ins
        break
      }
    }
  }
  return { ...m, functionDefs: defs }
}
