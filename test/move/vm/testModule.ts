/**
 * Test helper: a small hand-assembled module `0xcafe::t` (bytecode v9, run through the real
 * serializer and deserializer) with functions that exercise the interpreter's runtime checks:
 * an endless loop, endless recursion, arithmetic, casts, vector growth and out-of-bounds borrows.
 */
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import type { CompiledModule, FunctionDefinition } from "../../../src/move/binary/CompiledModule.js"
import type { Instruction } from "../../../src/move/binary/Instruction.js"
import { Opcode } from "../../../src/move/binary/Opcode.js"
import { serializeModule } from "../../../src/move/binary/serialize.js"
import { primitiveTokens as P, type SignatureToken } from "../../../src/move/binary/SignatureToken.js"
import type { StateView } from "../../../src/move/vm/StateView.js"
import { functionHandle, ix, ldU64 as ld64, moduleOf, op } from "../../support/moveAssembly.js"

export const TEST_ADDRESS = addressFromNumber(0xcafe)

const sigs: SignatureToken[][] = [
  [], // 0
  [P.U64], // 1
  [P.U64, P.U64], // 2
  [P.U64, P.U8], // 3
  [P.U8, P.U8], // 4
  [P.U8], // 5
  [{ _tag: "Vector", element: P.U64 }, P.U64], // 6: grow's locals
  [{ _tag: "Vector", element: P.U64 }], // 7: borrow_oob's locals
  [{ _tag: "Function", args: [P.U64], results: [P.U64], abilities: 0x3 }], // 8: |u64| u64 has copy+drop
  [P.I64], // 9
  [P.I8, P.I8], // 10
  [P.I8] // 11
]

const br = (o: Opcode, offset: number): Instruction => ({ op: o, offset }) as Instruction
const vecPack = (index: number, count: bigint): Instruction => ({ op: Opcode.VecPack, index, count }) as Instruction

interface Fn {
  readonly name: string
  readonly params: number
  readonly returns: number
  readonly locals: number
  readonly code: Instruction[]
}

const fns: Fn[] = [
  { name: "spin", params: 0, returns: 1, locals: 0, code: [br(Opcode.Branch, 0)] },
  {
    name: "recurse",
    params: 1,
    returns: 1,
    locals: 0,
    code: [ix(Opcode.CopyLoc, 0), ix(Opcode.Call, 1), op(Opcode.Ret)]
  },
  {
    name: "add",
    params: 2,
    returns: 1,
    locals: 0,
    code: [ix(Opcode.MoveLoc, 0), ix(Opcode.MoveLoc, 1), op(Opcode.Add), op(Opcode.Ret)]
  },
  {
    name: "sub",
    params: 2,
    returns: 1,
    locals: 0,
    code: [ix(Opcode.MoveLoc, 0), ix(Opcode.MoveLoc, 1), op(Opcode.Sub), op(Opcode.Ret)]
  },
  {
    name: "div",
    params: 2,
    returns: 1,
    locals: 0,
    code: [ix(Opcode.MoveLoc, 0), ix(Opcode.MoveLoc, 1), op(Opcode.Div), op(Opcode.Ret)]
  },
  {
    name: "shl",
    params: 3,
    returns: 1,
    locals: 0,
    code: [ix(Opcode.MoveLoc, 0), ix(Opcode.MoveLoc, 1), op(Opcode.Shl), op(Opcode.Ret)]
  },
  {
    name: "add8",
    params: 4,
    returns: 5,
    locals: 0,
    code: [ix(Opcode.MoveLoc, 0), ix(Opcode.MoveLoc, 1), op(Opcode.Add), op(Opcode.Ret)]
  },
  { name: "cast8", params: 1, returns: 5, locals: 0, code: [ix(Opcode.MoveLoc, 0), op(Opcode.CastU8), op(Opcode.Ret)] },
  {
    name: "grow",
    params: 1,
    returns: 1,
    locals: 6,
    code: [
      vecPack(1, 0n),
      ix(Opcode.StLoc, 1),
      ld64(0n),
      ix(Opcode.StLoc, 2),
      ix(Opcode.CopyLoc, 2), // 4: loop head
      ix(Opcode.CopyLoc, 0),
      op(Opcode.Lt),
      br(Opcode.BrFalse, 16),
      ix(Opcode.MutBorrowLoc, 1),
      ix(Opcode.CopyLoc, 2),
      ix(Opcode.VecPushBack, 1),
      ix(Opcode.MoveLoc, 2),
      ld64(1n),
      op(Opcode.Add),
      ix(Opcode.StLoc, 2),
      br(Opcode.Branch, 4),
      ix(Opcode.ImmBorrowLoc, 1), // 16
      ix(Opcode.VecLen, 1),
      op(Opcode.Ret)
    ]
  },
  {
    name: "borrow_oob",
    params: 1,
    returns: 1,
    locals: 7,
    code: [
      vecPack(1, 0n),
      ix(Opcode.StLoc, 1),
      ix(Opcode.ImmBorrowLoc, 1),
      ix(Opcode.MoveLoc, 0),
      ix(Opcode.VecImmBorrow, 1),
      op(Opcode.ReadRef),
      op(Opcode.Ret)
    ]
  },
  { name: "abort_with", params: 1, returns: 1, locals: 0, code: [ix(Opcode.MoveLoc, 0), op(Opcode.Abort)] },
  {
    // x captured into `add` (mask 0b1), then called with 5: x + 5
    name: "closure_add5",
    params: 1,
    returns: 1,
    locals: 8,
    code: [
      ix(Opcode.MoveLoc, 0),
      { op: Opcode.PackClosure, index: 2, mask: 1n } as Instruction,
      ix(Opcode.StLoc, 1),
      ld64(5n),
      ix(Opcode.MoveLoc, 1),
      ix(Opcode.CallClosure, 8),
      op(Opcode.Ret)
    ]
  },
  { name: "neg64", params: 9, returns: 9, locals: 0, code: [ix(Opcode.MoveLoc, 0), op(Opcode.Negate), op(Opcode.Ret)] },
  {
    name: "addi8",
    params: 10,
    returns: 11,
    locals: 0,
    code: [ix(Opcode.MoveLoc, 0), ix(Opcode.MoveLoc, 1), op(Opcode.Add), op(Opcode.Ret)]
  }
]

const identifiers = ["t", ...fns.map((f) => f.name)]

export const testModule: CompiledModule = moduleOf({
  version: 9,
  moduleHandles: [{ address: 0, name: 0 }],
  functionHandles: fns.map((f, i) => functionHandle(0, i + 1, f.params, f.returns)),
  signatures: sigs,
  identifiers,
  addressIdentifiers: [TEST_ADDRESS],
  functionDefs: fns.map(
    (f, i): FunctionDefinition => ({
      function: i,
      visibility: 1,
      isEntry: false,
      acquiresGlobalResources: [],
      code: { locals: f.locals, code: f.code }
    })
  )
})

export const testModuleBytes: Uint8Array = serializeModule(testModule)

/** `base` plus the test module at 0xcafe. */
export const withTestModule = (base: StateView): StateView => ({
  ...base,
  module: (address, name) =>
    address[30] === 0xca && address[31] === 0xfe && name === "t"
      ? { bytes: testModuleBytes, version: 1n }
      : base.module(address, name)
})
