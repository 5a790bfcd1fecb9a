import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { CompiledModule, Instruction } from "../../../src/move/binary/CompiledModule.js"
import { Opcode } from "../../../src/move/binary/Opcode.js"
import { serializeModule } from "../../../src/move/binary/serialize.js"
import { primitiveTokens as P, type SignatureToken } from "../../../src/move/binary/SignatureToken.js"
import { verifyTypeSafety } from "../../../src/move/verifier/typeSafety.js"
import { ALL_GENESIS, describeEachGenesis } from "../../support/genesis.js"
import { functionHandle, ix, ldU8, ldU64, moduleOf, op, signerRef } from "../../support/moveAssembly.js"
import { frameworkOf, moduleFrom, reread, USER } from "./support.js"
import { forgeModule } from "../../support/hostileModules.js"

describeEachGenesis(ALL_GENESIS, "%s genesis: type safety accepts the framework", (net) => {
  const modules = frameworkOf(net)

  it("never throws on mutated framework function bodies", () => {
    const withCode = modules.filter((m) => m.functionDefs.some((d) => d.code !== undefined && d.code.code.length > 0))
    let fed = 0
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: withCode.length - 1 }),
        fc.array(mutationArb, { minLength: 1, maxLength: 4 }),
        (mi, mutations) => {
          // Only what the writer and the reader accept is fed (an opcode the module's version lacks is
          // the writer's business): the verifier may rely on the reader's bounds checks.
          const r = reread(mutate(withCode[mi]!, mutations))
          if (r === undefined) return
          fed++
          const f = verifyTypeSafety(r)
          expect(f === undefined || typeof f.status === "string").toBe(true)
        }
      ),
      { numRuns: 500 }
    )
    // Most mutants stay within the reader's bounds (small operands), so the verifier does see them.
    expect(fed).toBeGreaterThan(100)
  })
})

// ---------------------------------------------------------------------------------------------
// Refusals

const coinOf: SignatureToken = { _tag: "StructInstantiation", handle: 1, typeArgs: [{ _tag: "Struct", handle: 2 }] }

/**
 * A module `0xbeef::t` with struct `S { value: u64 }` (abilities `abilities`, default none) and one
 * function `f(params): returns` with extra `locals` and `code`; handle 1 is `g(): u64`, defined as
 * `LdU64 0; Ret` (function 1).
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
    functionHandles: [functionHandle(0, 2, 1, 2), functionHandle(0, 4, 4, 5)],
    signatures: [[], [...(parts.params ?? [])], [...(parts.returns ?? [])], [...(parts.locals ?? [])], [], [P.U64]],
    identifiers: ["t", "S", "f", "value", "g"],
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
        code: { locals: 0, code: [ldU64(0n), op(Opcode.Ret)] }
      }
    ]
  })

const S: SignatureToken = { _tag: "Struct", handle: 0 }
const statusOf = (m: CompiledModule): string | undefined => verifyTypeSafety(m)?.status

describe("type safety refuses", () => {
  it("the forged coin (a Fake passed as a Coin<AptosCoin>)", () => {
    const f = verifyTypeSafety(forgeModule(USER))
    expect(f?.status).toBe("CALL_TYPE_MISMATCH_ERROR")
    expect(f?.offset).toBe(4)
    // And through the bytes, as publishing sees it.
    expect(verifyTypeSafety(moduleFrom(serializeModule(forgeModule(USER))))?.status).toBe("CALL_TYPE_MISMATCH_ERROR")
  })

  it("a struct definition whose handle is another module's struct", () => {
    const m = forgeModule(USER)
    const stolen = { ...m, structDefs: [{ ...m.structDefs[0]!, structHandle: 2 }] }
    expect(statusOf(stolen)).toBe("INVALID_MODULE_HANDLE")
  })

  it("two definitions of one struct, or two handles for one struct or function", () => {
    const m = forgeModule(USER)
    // Pack through a `Fake { value: u64 }` definition, unpack through a `Fake { coin: Coin<AptosCoin> }` one.
    const coinField = { _tag: "Declared", fields: [{ name: 10, type: coinOf }] } as const
    const twice = { ...m, structDefs: [m.structDefs[0]!, { structHandle: 0, fieldInformation: coinField }] }
    expect(statusOf(twice)).toBe("DUPLICATE_ELEMENT")
    const twoHandles = { ...m, structHandles: [...m.structHandles, { ...m.structHandles[0]!, abilities: 0xf }] }
    expect(statusOf(twoHandles)).toBe("DUPLICATE_ELEMENT")
    const twoFunctions = { ...m, functionHandles: [...m.functionHandles, functionHandle(0, 7, 2, 0)] }
    expect(statusOf(twoFunctions)).toBe("DUPLICATE_ELEMENT")
  })

  it("a handle of the module's own struct or function that nothing defines", () => {
    const m = forgeModule(USER)
    expect(statusOf(m)).not.toBe("UNIMPLEMENTED_HANDLE")
    const undefinedStruct = { ...m, structDefs: [] }
    expect(statusOf(undefinedStruct)).toBe("UNIMPLEMENTED_HANDLE")
    const ownName = m.identifiers.length
    const undeclaredFunction = {
      ...m,
      identifiers: [...m.identifiers, "never_defined"],
      functionHandles: [...m.functionHandles, functionHandle(0, ownName, 2, 0)]
    }
    expect(statusOf(undeclaredFunction)).toBe("UNIMPLEMENTED_HANDLE")
  })

  it("a constant of a struct type", () => {
    const m = forgeModule(USER)
    const fromConstant = {
      ...m,
      constantPool: [{ type: coinOf, data: Uint8Array.from([1]) }],
      functionDefs: [
        {
          ...m.functionDefs[0]!,
          code: {
            locals: 0,
            code: [
              ix(Opcode.MoveLoc, 0),
              ix(Opcode.Call, 1),
              ix(Opcode.LdConst, 0),
              ix(Opcode.CallGeneric, 0),
              op(Opcode.Ret)
            ]
          }
        }
      ]
    }
    expect(statusOf(fromConstant)).toBe("INVALID_CONSTANT_TYPE")
  })

  it("accepts the baseline of these cases", () => {
    expect(statusOf(single({ returns: [P.U64], code: [ldU64(1n), ldU64(2n), op(Opcode.Add), op(Opcode.Ret)] }))).toBe(
      undefined
    )
    expect(
      statusOf(
        single({ params: [S], returns: [P.U64], code: [ix(Opcode.MoveLoc, 0), ix(Opcode.Unpack, 0), op(Opcode.Ret)] })
      )
    ).toBe(undefined)
  })

  it("CopyLoc of a value without copy", () => {
    const m = single({
      params: [S],
      returns: [S, S],
      code: [ix(Opcode.CopyLoc, 0), ix(Opcode.MoveLoc, 0), op(Opcode.Ret)]
    })
    expect(statusOf(m)).toBe("COPYLOC_WITHOUT_COPY_ABILITY")
  })

  it("Pop of a value without drop", () => {
    expect(statusOf(single({ params: [S], code: [ix(Opcode.MoveLoc, 0), op(Opcode.Pop), op(Opcode.Ret)] }))).toBe(
      "POP_WITHOUT_DROP_ABILITY"
    )
    // With drop it is fine.
    expect(
      statusOf(single({ abilities: 0x2, params: [S], code: [ix(Opcode.MoveLoc, 0), op(Opcode.Pop), op(Opcode.Ret)] }))
    ).toBe(undefined)
  })

  it("Add of a u64 and a u8", () => {
    const m = single({ returns: [P.U64], code: [ldU64(1n), ldU8(2), op(Opcode.Add), op(Opcode.Ret)] })
    expect(statusOf(m)).toBe("INTEGER_OP_TYPE_MISMATCH_ERROR")
  })

  it("BrTrue on a u64", () => {
    const m = single({ code: [ldU64(1n), { op: Opcode.BrTrue, offset: 2 }, op(Opcode.Ret)] })
    expect(statusOf(m)).toBe("BR_TYPE_MISMATCH_ERROR")
  })

  it("Ret of the wrong type", () => {
    expect(statusOf(single({ returns: [P.U64], code: [ldU8(1), op(Opcode.Ret)] }))).toBe("RET_TYPE_MISMATCH_ERROR")
  })

  it("StLoc of the wrong type", () => {
    const m = single({ params: [P.U64], code: [op(Opcode.LdTrue), ix(Opcode.StLoc, 0), op(Opcode.Ret)] })
    expect(statusOf(m)).toBe("STLOC_TYPE_MISMATCH_ERROR")
  })

  it("stack underflow", () => {
    expect(statusOf(single({ code: [op(Opcode.Pop), op(Opcode.Ret)] }))).toBe("NEGATIVE_STACK_SIZE_WITHIN_BLOCK")
    expect(statusOf(single({ returns: [P.U64], code: [op(Opcode.Ret)] }))).toBe("NEGATIVE_STACK_SIZE_WITHIN_BLOCK")
  })

  it("a block ending with a value on the stack", () => {
    // LdU64 then Branch to the Ret: the value crosses a block boundary.
    const m = single({ returns: [P.U64], code: [ldU64(1n), { op: Opcode.Branch, offset: 2 }, op(Opcode.Ret)] })
    expect(statusOf(m)).toBe("POSITIVE_STACK_SIZE_AT_BLOCK_END")
    expect(statusOf(single({ code: [ldU64(1n), op(Opcode.Ret)] }))).toBe("POSITIVE_STACK_SIZE_AT_BLOCK_END")
  })

  it("WriteRef through an immutable reference", () => {
    const m = single({
      locals: [P.U64],
      code: [ldU64(1n), ix(Opcode.StLoc, 0), ldU64(2n), ix(Opcode.ImmBorrowLoc, 0), op(Opcode.WriteRef), op(Opcode.Ret)]
    })
    expect(statusOf(m)).toBe("WRITEREF_NO_MUTABLE_REFERENCE_ERROR")
  })

  it("a &mut passed where a & is expected without FreezeRef", () => {
    // f(r: &u64) stores a `&mut` of its local 1 into r: a `&mut u64` is a `&u64` only after FreezeRef.
    const code = (freeze: boolean): Instruction[] => [
      ldU64(1n),
      ix(Opcode.StLoc, 1),
      ix(Opcode.MutBorrowLoc, 1),
      ...(freeze ? [op(Opcode.FreezeRef)] : []),
      ix(Opcode.StLoc, 0),
      op(Opcode.Ret)
    ]
    const m = (freeze: boolean) =>
      single({ params: [{ _tag: "Reference", to: P.U64 }], locals: [P.U64], code: code(freeze) })
    expect(statusOf(m(false))).toBe("STLOC_TYPE_MISMATCH_ERROR")
    expect(statusOf(m(true))).toBe(undefined)
  })

  it("MoveTo of a struct without key", () => {
    const m = single({
      params: [signerRef],
      code: [ix(Opcode.MoveLoc, 0), ldU64(1n), ix(Opcode.Pack, 0), ix(Opcode.MoveTo, 0), op(Opcode.Ret)]
    })
    expect(statusOf(m)).toBe("MOVETO_WITHOUT_KEY_ABILITY")
    expect(statusOf({ ...m, structHandles: [{ ...m.structHandles[0]!, abilities: 0x8 }] })).toBe(undefined)
  })

  it("Eq of values without drop, ReadRef of a value without copy", () => {
    const eq = single({
      params: [S, S],
      returns: [P.Bool],
      code: [ix(Opcode.MoveLoc, 0), ix(Opcode.MoveLoc, 1), op(Opcode.Eq), op(Opcode.Ret)]
    })
    expect(statusOf(eq)).toBe("EQUALITY_OP_TYPE_MISMATCH_ERROR")
    const read = single({
      params: [{ _tag: "Reference", to: S }],
      returns: [S],
      code: [ix(Opcode.MoveLoc, 0), op(Opcode.ReadRef), op(Opcode.Ret)]
    })
    expect(statusOf(read)).toBe("READREF_WITHOUT_COPY_ABILITY")
  })

  it("a field borrow through a reference to another type", () => {
    const m = single({
      params: [{ _tag: "Reference", to: P.U64 }],
      returns: [{ _tag: "Reference", to: P.U64 }],
      code: [ix(Opcode.MoveLoc, 0), ix(Opcode.ImmBorrowField, 0), op(Opcode.Ret)]
    })
    expect(statusOf(m)).toBe("BORROWFIELD_TYPE_MISMATCH_ERROR")
  })
})

// ---------------------------------------------------------------------------------------------
// Generics: abilities of instantiations, constraints, generic and plain opcodes

/**
 * `0xbeef::g`: `S {}` (no abilities, handle 0), `Box<T> has copy, drop { v: T }` (handle 1),
 * `Ph<phantom T> has copy, drop { x: u64 }` (handle 2); `f(param): (param, param)` copies its
 * parameter (`CopyLoc 0; MoveLoc 0; Ret`) unless `code` is given; `h<T: copy>(T)` (handle 1).
 */
const generic = (param: SignatureToken, code?: ReadonlyArray<Instruction>) =>
  moduleOf({
    moduleHandles: [{ address: 0, name: 0 }],
    structHandles: [
      { module: 0, name: 1, abilities: 0, typeParameters: [] },
      { module: 0, name: 2, abilities: 0x3, typeParameters: [{ constraints: 0, isPhantom: false }] },
      { module: 0, name: 3, abilities: 0x3, typeParameters: [{ constraints: 0, isPhantom: true }] }
    ],
    functionHandles: [functionHandle(0, 4, 1, 2), functionHandle(0, 7, 3, 0, [0x1])],
    signatures: [[], [param], [param, param], [{ _tag: "TypeParameter", index: 0 }], [S], [P.U64]],
    functionInstantiations: [
      { handle: 1, typeParameters: 4 },
      { handle: 1, typeParameters: 5 }
    ],
    structDefInstantiations: [{ def: 1, typeParameters: 5 }],
    identifiers: ["g", "S", "Box", "Ph", "f", "v", "x", "h"],
    addressIdentifiers: [USER],
    structDefs: [
      { structHandle: 0, fieldInformation: { _tag: "Declared", fields: [{ name: 6, type: P.Bool }] } },
      {
        structHandle: 1,
        fieldInformation: { _tag: "Declared", fields: [{ name: 5, type: { _tag: "TypeParameter", index: 0 } }] }
      },
      { structHandle: 2, fieldInformation: { _tag: "Declared", fields: [{ name: 6, type: P.U64 }] } }
    ],
    functionDefs: [
      {
        function: 0,
        visibility: 1,
        isEntry: false,
        acquiresGlobalResources: [],
        code: { locals: 0, code: [...(code ?? [ix(Opcode.CopyLoc, 0), ix(Opcode.MoveLoc, 0), op(Opcode.Ret)])] }
      },
      {
        function: 1,
        visibility: 1,
        isEntry: false,
        acquiresGlobalResources: [],
        code: { locals: 0, code: [op(Opcode.Ret)] }
      }
    ]
  })

const boxOf = (t: SignatureToken): SignatureToken => ({ _tag: "StructInstantiation", handle: 1, typeArgs: [t] })
const phOf = (t: SignatureToken): SignatureToken => ({ _tag: "StructInstantiation", handle: 2, typeArgs: [t] })

describe("type safety of generics", () => {
  it("an instantiated struct has its abilities only where its non-phantom arguments allow", () => {
    expect(statusOf(generic(boxOf(P.U64)))).toBe(undefined)
    expect(statusOf(generic(boxOf(S)))).toBe("COPYLOC_WITHOUT_COPY_ABILITY")
    expect(statusOf(generic(phOf(S)))).toBe(undefined)
    expect(statusOf(generic({ _tag: "Vector", element: S }))).toBe("COPYLOC_WITHOUT_COPY_ABILITY")
  })

  it("type arguments must satisfy the callee's constraints", () => {
    const callWith = (inst: number, arg: Instruction[]) =>
      generic(P.U64, [
        ...arg,
        ix(Opcode.CallGeneric, inst),
        ix(Opcode.CopyLoc, 0),
        ix(Opcode.MoveLoc, 0),
        op(Opcode.Ret)
      ])
    expect(statusOf(callWith(1, [ldU64(1n)]))).toBe(undefined)
    expect(statusOf(callWith(0, [op(Opcode.LdTrue), ix(Opcode.Pack, 0)]))).toBe("CONSTRAINT_NOT_SATISFIED")
  })

  it("generic opcodes on generic members, plain ones on plain members", () => {
    const packPlain = generic(boxOf(P.U64), [
      ldU64(1n),
      ix(Opcode.Pack, 1),
      op(Opcode.Pop),
      ix(Opcode.CopyLoc, 0),
      ix(Opcode.MoveLoc, 0),
      op(Opcode.Ret)
    ])
    expect(statusOf(packPlain)).toBe("GENERIC_MEMBER_OPCODE_MISMATCH")
    const packGeneric = generic(boxOf(P.U64), [
      ldU64(1n),
      ix(Opcode.PackGeneric, 0),
      ix(Opcode.CopyLoc, 0),
      op(Opcode.Ret)
    ])
    expect(statusOf(packGeneric)).toBe(undefined)
    const callPlain = generic(P.U64, [
      ldU64(1n),
      ix(Opcode.Call, 1),
      ix(Opcode.CopyLoc, 0),
      ix(Opcode.MoveLoc, 0),
      op(Opcode.Ret)
    ])
    expect(statusOf(callPlain)).toBe("GENERIC_MEMBER_OPCODE_MISMATCH")
  })
})

// ---------------------------------------------------------------------------------------------
// Instructions the genesis frameworks never use (signed integers, AbortMsg, Or/And, PackClosure)

const I64: SignatureToken = P.I64
const fnType = (abilities: number): SignatureToken => ({ _tag: "Function", args: [P.U64], results: [P.U64], abilities })

/**
 * `0xbeef::v` (bytecode v10): `f(): returns` with `code`, and `g(x: u64, y: u64): u64` (handle 1,
 * function 1) returning `x + y`. Signature 4 is `[fnType(closureAbilities)]`, for CallClosure;
 * constant 0 is the `vector<u8>` "no".
 */
const v10 = (returns: ReadonlyArray<SignatureToken>, code: ReadonlyArray<Instruction>, closureAbilities = 0x2) =>
  moduleOf({
    version: 10,
    moduleHandles: [{ address: 0, name: 0 }],
    functionHandles: [functionHandle(0, 1, 0, 1), functionHandle(0, 2, 2, 3)],
    signatures: [[], [...returns], [P.U64, P.U64], [P.U64], [fnType(closureAbilities)]],
    identifiers: ["v", "f", "g"],
    addressIdentifiers: [USER],
    constantPool: [{ type: { _tag: "Vector", element: P.U8 }, data: Uint8Array.from([2, 0x6e, 0x6f]) }],
    functionDefs: [
      { function: 0, visibility: 1, isEntry: false, acquiresGlobalResources: [], code: { locals: 0, code: [...code] } },
      {
        function: 1,
        visibility: 1,
        isEntry: false,
        acquiresGlobalResources: [],
        code: { locals: 0, code: [ix(Opcode.MoveLoc, 0), ix(Opcode.MoveLoc, 1), op(Opcode.Add), op(Opcode.Ret)] }
      }
    ]
  })

const ldI64 = (value: bigint): Instruction => ({ op: Opcode.LdI64, value }) as Instruction
const closure = (mask: bigint): Instruction => ({ op: Opcode.PackClosure, index: 1, mask }) as Instruction

describe("type safety of the newer instructions", () => {
  it("signed arithmetic, Negate and signed casts", () => {
    const ok = [
      ldI64(-3n),
      op(Opcode.Negate),
      ldI64(4n),
      op(Opcode.Add),
      op(Opcode.CastI8),
      op(Opcode.CastI64),
      op(Opcode.Ret)
    ]
    expect(statusOf(v10([I64], ok))).toBe(undefined)
    // Negate of an unsigned integer, Add of an i64 and a u64.
    expect(statusOf(v10([P.U64], [ldU64(1n), op(Opcode.Negate), op(Opcode.Ret)]))).toBe(
      "INTEGER_OP_TYPE_MISMATCH_ERROR"
    )
    expect(statusOf(v10([I64], [ldI64(1n), ldU64(1n), op(Opcode.Add), op(Opcode.Ret)]))).toBe(
      "INTEGER_OP_TYPE_MISMATCH_ERROR"
    )
  })

  it("AbortMsg takes a u64 code and a vector<u8> message", () => {
    expect(statusOf(v10([], [ldU64(1n), ix(Opcode.LdConst, 0), op(Opcode.AbortMsg)]))).toBe(undefined)
    expect(statusOf(v10([], [ix(Opcode.LdConst, 0), ldU64(1n), op(Opcode.AbortMsg)]))).toBe("ABORT_TYPE_MISMATCH_ERROR")
  })

  it("Or and And take bools", () => {
    expect(statusOf(v10([P.Bool], [op(Opcode.LdTrue), op(Opcode.LdFalse), op(Opcode.Or), op(Opcode.Ret)]))).toBe(
      undefined
    )
    expect(statusOf(v10([P.Bool], [op(Opcode.LdTrue), ldU64(0n), op(Opcode.And), op(Opcode.Ret)]))).toBe(
      "BOOLEAN_OP_TYPE_MISMATCH_ERROR"
    )
  })

  it("PackClosure captures by mask and CallClosure calls with the rest", () => {
    // g(1, _) packed (captures x), then called with 2.
    const call = [ldU64(2n), ldU64(1n), closure(1n), ix(Opcode.CallClosure, 4), op(Opcode.Ret)]
    expect(statusOf(v10([P.U64], call))).toBe(undefined)
    // A private function's closure has copy and drop, not store: it does not fit `has store`.
    expect(statusOf(v10([P.U64], call, 0x4))).toBe("CALL_TYPE_MISMATCH_ERROR")
    // Capturing a bool for a u64 parameter; a mask naming a third parameter g lacks.
    expect(
      statusOf(v10([P.U64], [ldU64(2n), op(Opcode.LdTrue), closure(1n), ix(Opcode.CallClosure, 4), op(Opcode.Ret)]))
    ).toBe("PACK_TYPE_MISMATCH_ERROR")
    expect(statusOf(v10([P.U64], [ldU64(2n), ldU64(1n), closure(4n), op(Opcode.Pop), op(Opcode.Ret)]))).toBe(
      "INVALID_CLOSURE_MASK"
    )
  })
})

// ---------------------------------------------------------------------------------------------
// Mutations of valid bodies

/** Instructions with small operands; most are out of range somewhere and are dropped by the reader. */
const instructionArb: fc.Arbitrary<Instruction> = fc.oneof(
  fc
    .constantFrom(
      Opcode.Pop,
      Opcode.Ret,
      Opcode.LdTrue,
      Opcode.ReadRef,
      Opcode.WriteRef,
      Opcode.Add,
      Opcode.Shl,
      Opcode.Eq,
      Opcode.Not,
      Opcode.And,
      Opcode.Abort,
      Opcode.FreezeRef,
      Opcode.CastU8,
      Opcode.CastU128,
      Opcode.Lt,
      Opcode.Or,
      Opcode.Negate,
      Opcode.CastI64,
      Opcode.AbortMsg
    )
    .map((o) => ({ op: o }) as Instruction),
  fc
    .record({
      op: fc.constantFrom(
        Opcode.CopyLoc,
        Opcode.MoveLoc,
        Opcode.StLoc,
        Opcode.MutBorrowLoc,
        Opcode.ImmBorrowLoc,
        Opcode.Call,
        Opcode.CallGeneric,
        Opcode.Pack,
        Opcode.Unpack,
        Opcode.PackGeneric,
        Opcode.MutBorrowField,
        Opcode.ImmBorrowFieldGeneric,
        Opcode.MoveTo,
        Opcode.MoveFromGeneric,
        Opcode.ExistsGeneric,
        Opcode.ImmBorrowGlobal,
        Opcode.LdConst,
        Opcode.VecLen,
        Opcode.VecPushBack,
        Opcode.VecImmBorrow,
        Opcode.VecSwap,
        Opcode.VecPopBack,
        Opcode.ImmBorrowVariantField,
        Opcode.MutBorrowVariantFieldGeneric,
        Opcode.PackVariant,
        Opcode.PackVariantGeneric,
        Opcode.UnpackVariantGeneric,
        Opcode.TestVariant,
        Opcode.CallClosure
      ),
      index: fc.integer({ min: 0, max: 6 })
    })
    .map((r) => r as Instruction),
  fc
    .record({
      op: fc.constantFrom(Opcode.BrTrue, Opcode.BrFalse, Opcode.Branch),
      offset: fc.integer({ min: 0, max: 40 })
    })
    .map((r) => r as Instruction),
  fc.bigInt({ min: 0n, max: 5n }).map((value) => ({ op: Opcode.LdU64, value }) as Instruction),
  fc.bigInt({ min: -5n, max: 5n }).map((value) => ({ op: Opcode.LdI64, value }) as Instruction),
  fc
    .record({
      op: fc.constantFrom(Opcode.PackClosure, Opcode.PackClosureGeneric),
      index: fc.integer({ min: 0, max: 6 }),
      mask: fc.bigInt({ min: 0n, max: 7n })
    })
    .map((r) => r as Instruction),
  fc.integer({ min: 0, max: 255 }).map((value) => ({ op: Opcode.LdU8, value }) as Instruction),
  fc
    .record({
      op: fc.constantFrom(Opcode.VecPack, Opcode.VecUnpack),
      index: fc.integer({ min: 0, max: 6 }),
      count: fc.bigInt({ min: 0n, max: 3n })
    })
    .map((r) => r as Instruction)
)

interface Mutation {
  readonly fn: number
  readonly at: number
  readonly kind: "replace" | "insert" | "delete"
  readonly ins: Instruction
}
const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  fn: fc.nat(),
  at: fc.nat(),
  kind: fc.constantFrom("replace" as const, "insert" as const, "delete" as const),
  ins: instructionArb
})

const mutate = (m: CompiledModule, mutations: ReadonlyArray<Mutation>): CompiledModule => {
  const defs = m.functionDefs.map((d) =>
    d.code === undefined ? d : { ...d, code: { ...d.code, code: [...d.code.code] } }
  )
  const withCode = defs.filter((d) => d.code !== undefined && d.code.code.length > 0)
  for (const mu of mutations) {
    const code = withCode[mu.fn % withCode.length]!.code!.code as Instruction[]
    const at = mu.at % code.length
    if (mu.kind === "replace") code[at] = mu.ins
    else if (mu.kind === "insert") code.splice(at, 0, mu.ins)
    else if (code.length > 1) code.splice(at, 1)
  }
  return { ...m, functionDefs: defs }
}
