/** Writers for signature tokens, instructions and code units: the exact inverse of the readers. */
import type { BcsWriter } from "../../bcs/index.js"
import type { AccessSpecifier, CodeUnit, FunctionAttribute } from "./CompiledModule.js"
import type { Instruction } from "./Instruction.js"
import { opcodeInfo } from "./opcodeInfo.js"
import { SerializedType, type SignatureToken } from "./SignatureToken.js"

export const writeUlebU64 = (w: BcsWriter, v: bigint): void => {
  while (v >= 0x80n) {
    w.u8(Number(v & 0x7fn) | 0x80)
    v >>= 7n
  }
  w.u8(Number(v))
}

export const writeSignatureToken = (w: BcsWriter, t: SignatureToken): void => {
  switch (t._tag) {
    case "Reference":
    case "MutableReference":
      w.u8(SerializedType[t._tag])
      writeSignatureToken(w, t.to)
      return
    case "Vector":
      w.u8(SerializedType.Vector)
      writeSignatureToken(w, t.element)
      return
    case "Struct":
      w.u8(SerializedType.Struct).uleb128(t.handle)
      return
    case "StructInstantiation":
      w.u8(SerializedType.StructInstantiation).uleb128(t.handle).uleb128(t.typeArgs.length)
      for (const a of t.typeArgs) writeSignatureToken(w, a)
      return
    case "TypeParameter":
      w.u8(SerializedType.TypeParameter).uleb128(t.index)
      return
    case "Function":
      w.u8(SerializedType.Function).uleb128(t.abilities).uleb128(t.args.length).uleb128(t.results.length)
      for (const a of t.args) writeSignatureToken(w, a)
      for (const r of t.results) writeSignatureToken(w, r)
      return
    default:
      w.u8(SerializedType[t._tag])
  }
}

const attributeKind: Record<FunctionAttribute["_tag"], number> = {
  Persistent: 1,
  ModuleLock: 2,
  Pack: 3,
  PackVariant: 4,
  Unpack: 5,
  UnpackVariant: 6,
  TestVariant: 7,
  BorrowFieldImmutable: 8,
  BorrowFieldMutable: 9
}

export const writeAttribute = (w: BcsWriter, a: FunctionAttribute): void => {
  w.u8(attributeKind[a._tag])
  if ("index" in a) w.u16(a.index)
}

export const writeAccessSpecifiers = (w: BcsWriter, specs: ReadonlyArray<AccessSpecifier> | undefined): void => {
  if (specs === undefined) {
    w.u8(1)
    return
  }
  w.u8(2).uleb128(specs.length)
  for (const s of specs) {
    w.u8(s.kind === "Reads" ? 1 : 2).u8(s.negated ? 2 : 1)
    const r = s.resource
    switch (r._tag) {
      case "Any":
        w.u8(1)
        break
      case "DeclaredAtAddress":
        w.u8(2).uleb128(r.address)
        break
      case "DeclaredInModule":
        w.u8(3).uleb128(r.module)
        break
      case "Resource":
        w.u8(4).uleb128(r.structHandle)
        break
      case "ResourceInstantiation":
        w.u8(5).uleb128(r.structHandle).uleb128(r.typeArgs)
        break
    }
    const a = s.address
    switch (a._tag) {
      case "Any":
        w.u8(1)
        break
      case "Literal":
        w.u8(2).uleb128(a.address)
        break
      case "Parameter":
        w.u8(3).uleb128(a.local)
        if (a.functionInstantiation === undefined) w.u8(1)
        else w.u8(2).uleb128(a.functionInstantiation)
        break
    }
  }
}

const writeInstruction = (w: BcsWriter, ins: Instruction): void => {
  w.u8(ins.op)
  const i = ins as any
  switch (opcodeInfo[ins.op]!.operand) {
    case "none":
      return
    case "branch":
      w.uleb128(i.offset)
      return
    case "u8":
    case "i8":
      w.u8(i.value)
      return
    case "u16":
    case "i16":
      w.u16(i.value & 0xffff)
      return
    case "u32":
    case "i32":
      w.u32(i.value >>> 0)
      return
    case "u64":
      w.u64(i.value)
      return
    case "u128":
      w.u128(i.value)
      return
    case "u256":
      w.u256(i.value)
      return
    case "i64":
      w.signed(64, i.value)
      return
    case "i128":
      w.signed(128, i.value)
      return
    case "i256":
      w.signed(256, i.value)
      return
    case "vecCount":
      w.uleb128(i.index).u64(i.count)
      return
    case "closure":
    case "closureGeneric":
      w.uleb128(i.index)
      writeUlebU64(w, i.mask)
      return
    default:
      w.uleb128(i.index)
  }
}

export const writeCodeUnit = (w: BcsWriter, unit: CodeUnit): void => {
  w.uleb128(unit.locals).uleb128(unit.code.length)
  for (const ins of unit.code) writeInstruction(w, ins)
}
