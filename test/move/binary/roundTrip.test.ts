import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { BcsWriter } from "../../../src/bcs/index.js"
import { BinaryCursor } from "../../../src/move/binary/BinaryCursor.js"
import type { Instruction } from "../../../src/move/binary/Instruction.js"
import { OPCODE_MAX } from "../../../src/move/binary/Opcode.js"
import { opcodeInfo } from "../../../src/move/binary/opcodeInfo.js"
import { readCodeUnit } from "../../../src/move/binary/readCode.js"
import { readSignatureToken } from "../../../src/move/binary/readSignatureToken.js"
import { type PrimitiveTag, primitiveTokens, type SignatureToken } from "../../../src/move/binary/SignatureToken.js"
import { writeCodeUnit, writeSignatureToken } from "../../../src/move/binary/writeEntries.js"

const index = fc.integer({ min: 0, max: 65_535 })
const primitive = fc.constantFrom(...(Object.keys(primitiveTokens) as PrimitiveTag[])).map((t) => primitiveTokens[t])

const token: fc.Arbitrary<SignatureToken> = fc.letrec<{ tok: SignatureToken }>((tie) => ({
  tok: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    primitive,
    index.map((handle) => ({ _tag: "Struct" as const, handle })),
    fc.integer({ min: 0, max: 65_536 }).map((i) => ({ _tag: "TypeParameter" as const, index: i })),
    tie("tok").map((to) => ({ _tag: "Reference" as const, to })),
    tie("tok").map((to) => ({ _tag: "MutableReference" as const, to })),
    tie("tok").map((element) => ({ _tag: "Vector" as const, element })),
    fc
      .record({ handle: index, typeArgs: fc.array(tie("tok"), { minLength: 1, maxLength: 4 }) })
      .map((r) => ({ _tag: "StructInstantiation" as const, ...r })),
    fc
      .record({
        args: fc.array(tie("tok"), { maxLength: 3 }),
        results: fc.array(tie("tok"), { maxLength: 3 }),
        abilities: fc.integer({ min: 0, max: 15 })
      })
      .map((r) => ({ _tag: "Function" as const, ...r }))
  )
})).tok

const cursorOver = (bytes: Uint8Array) => new BinaryCursor(bytes, 0, bytes.length, 10)

const bigint = (bits: number, signed: boolean) =>
  signed
    ? fc.bigInt({ min: -(1n << BigInt(bits - 1)), max: (1n << BigInt(bits - 1)) - 1n })
    : fc.bigInt({ min: 0n, max: (1n << BigInt(bits)) - 1n })

const instruction: fc.Arbitrary<Instruction> = fc
  .integer({ min: 1, max: OPCODE_MAX })
  .chain((op): fc.Arbitrary<Instruction> => {
    const o = op as any
    const kind = opcodeInfo[op]!.operand
    switch (kind) {
      case "none":
        return fc.constant({ op: o })
      case "branch":
        return index.map((offset) => ({ op: o, offset }))
      case "local":
        return fc.integer({ min: 0, max: 255 }).map((i) => ({ op: o, index: i }))
      case "u8":
        return fc.integer({ min: 0, max: 255 }).map((value) => ({ op: o, value }))
      case "u16":
        return fc.integer({ min: 0, max: 65_535 }).map((value) => ({ op: o, value }))
      case "u32":
        return fc.integer({ min: 0, max: 0xffff_ffff }).map((value) => ({ op: o, value }))
      case "i8":
        return fc.integer({ min: -128, max: 127 }).map((value) => ({ op: o, value }))
      case "i16":
        return fc.integer({ min: -32_768, max: 32_767 }).map((value) => ({ op: o, value }))
      case "i32":
        return fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map((value) => ({ op: o, value }))
      case "u64":
      case "u128":
      case "u256":
      case "i64":
      case "i128":
      case "i256":
        return bigint(Number(kind.slice(1)), kind[0] === "i").map((value) => ({ op: o, value }))
      case "vecCount":
        return fc.tuple(index, bigint(64, false)).map(([i, count]) => ({ op: o, index: i, count }))
      case "closure":
      case "closureGeneric":
        return fc.tuple(index, bigint(64, false)).map(([i, mask]) => ({ op: o, index: i, mask }))
      default:
        return index.map((i) => ({ op: o, index: i }))
    }
  })

describe("entry-level round trips", () => {
  it("signature tokens: write then read gives the same token", () => {
    fc.assert(
      fc.property(token, (tok) => {
        const w = new BcsWriter()
        writeSignatureToken(w, tok)
        const bytes = w.toBytes()
        const c = cursorOver(bytes)
        expect(readSignatureToken(c)).toEqual(tok)
        expect(c.offset).toBe(bytes.length)
      }),
      { numRuns: 1000 }
    )
  })

  it("code units: write then read gives the same instructions", () => {
    fc.assert(
      fc.property(index, fc.array(instruction, { maxLength: 60 }), (locals, code) => {
        const w = new BcsWriter()
        writeCodeUnit(w, { locals, code })
        const bytes = w.toBytes()
        const c = cursorOver(bytes)
        expect(readCodeUnit(c)).toEqual({ locals, code })
        expect(c.offset).toBe(bytes.length)
      }),
      { numRuns: 1000 }
    )
  })
})
