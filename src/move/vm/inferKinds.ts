import type { CompiledModule, FunctionDefinition, StructFieldInformation } from "../binary/CompiledModule.js"
import { Opcode } from "../binary/Opcode.js"
import { primitiveTokens, type SignatureToken } from "../binary/SignatureToken.js"
import { K } from "./Type.js"

/**
 * The stack-type pass. Integers of different widths share a JS representation (numbers for ≤ 32
 * bits, bigints above), so the interpreter needs each arithmetic instruction's operand type to
 * check overflow. This walks the code once with a stack of signature tokens. The bytecode verifier
 * guarantees the operand stack is empty at every basic-block boundary, so the walk is linear: the
 * stack is reset at each block start. Everything it needs is in the function's own module (field
 * owners, handles' signatures, constants), so no other module is loaded.
 *
 * Result: for Add…Shr and Negate, the kind (`K.U8`…`K.I256`) of the left operand; 255 elsewhere.
 */
export const UNKNOWN_KIND = 255

const TOKEN_KIND: Record<string, number> = {
  U8: K.U8,
  U16: K.U16,
  U32: K.U32,
  U64: K.U64,
  U128: K.U128,
  U256: K.U256,
  I8: K.I8,
  I16: K.I16,
  I32: K.I32,
  I64: K.I64,
  I128: K.I128,
  I256: K.I256
}

const P = primitiveTokens
const UNKNOWN: SignatureToken = { _tag: "TypeParameter", index: 65535 }

const subst = (t: SignatureToken, args: ReadonlyArray<SignatureToken>): SignatureToken => {
  switch (t._tag) {
    case "TypeParameter":
      return args[t.index] ?? UNKNOWN
    case "Vector":
      return { _tag: "Vector", element: subst(t.element, args) }
    case "Reference":
      return { _tag: "Reference", to: subst(t.to, args) }
    case "MutableReference":
      return { _tag: "MutableReference", to: subst(t.to, args) }
    case "StructInstantiation":
      return { _tag: "StructInstantiation", handle: t.handle, typeArgs: t.typeArgs.map((a) => subst(a, args)) }
    default:
      return t
  }
}

const deref = (t: SignatureToken | undefined): SignatureToken =>
  t !== undefined && (t._tag === "Reference" || t._tag === "MutableReference") ? t.to : (t ?? UNKNOWN)

const vecElem = (t: SignatureToken | undefined): SignatureToken => {
  const v = deref(t)
  return v._tag === "Vector" ? v.element : UNKNOWN
}

const fieldsOf = (info: StructFieldInformation, variant: number): ReadonlyArray<SignatureToken> => {
  if (info._tag === "Declared") return info.fields.map((f) => f.type)
  if (info._tag === "DeclaredVariants") return (info.variants[variant]?.fields ?? []).map((f) => f.type)
  return []
}

export const inferKinds = (m: CompiledModule, def: FunctionDefinition): Uint8Array => {
  const code = def.code!
  const n = code.code.length
  const kinds = new Uint8Array(n).fill(UNKNOWN_KIND)
  const handle = m.functionHandles[def.function]!
  const locals = [...m.signatures[handle.parameters]!, ...m.signatures[code.locals]!]
  const leaders = new Uint8Array(n + 1)
  for (const i of code.code)
    if (i.op === Opcode.BrTrue || i.op === Opcode.BrFalse || i.op === Opcode.Branch) leaders[i.offset] = 1
  let stack: SignatureToken[] = []
  const pop = (): SignatureToken => stack.pop() ?? UNKNOWN
  const popN = (k: number): void => {
    stack.length = Math.max(0, stack.length - k)
  }
  const push = (t: SignatureToken): void => {
    stack.push(t)
  }
  const sig = (i: number): ReadonlyArray<SignatureToken> => m.signatures[i] ?? []
  const callEffect = (fh: number, tyArgs: ReadonlyArray<SignatureToken>): void => {
    const h = m.functionHandles[fh]!
    popN(sig(h.parameters).length)
    for (const r of sig(h.returns)) push(tyArgs.length ? subst(r, tyArgs) : r)
  }
  const structType = (defIdx: number, tyArgs: ReadonlyArray<SignatureToken>): SignatureToken => {
    const sh = m.structDefs[defIdx]!.structHandle
    return tyArgs.length
      ? { _tag: "StructInstantiation", handle: sh, typeArgs: tyArgs }
      : { _tag: "Struct", handle: sh }
  }
  for (let pc = 0; pc < n; pc++) {
    if (leaders[pc]) stack = []
    const ins = code.code[pc]! as { op: Opcode; index: number; count: bigint; mask: bigint }
    switch (ins.op) {
      case Opcode.Pop:
      case Opcode.StLoc:
        pop()
        break
      case Opcode.Ret:
      case Opcode.Branch:
      case Opcode.Abort:
      case Opcode.AbortMsg:
        stack = []
        break
      case Opcode.BrTrue:
      case Opcode.BrFalse:
        pop()
        stack = []
        break
      case Opcode.LdU8:
        push(P.U8)
        break
      case Opcode.LdU16:
        push(P.U16)
        break
      case Opcode.LdU32:
        push(P.U32)
        break
      case Opcode.LdU64:
        push(P.U64)
        break
      case Opcode.LdU128:
        push(P.U128)
        break
      case Opcode.LdU256:
        push(P.U256)
        break
      case Opcode.LdI8:
        push(P.I8)
        break
      case Opcode.LdI16:
        push(P.I16)
        break
      case Opcode.LdI32:
        push(P.I32)
        break
      case Opcode.LdI64:
        push(P.I64)
        break
      case Opcode.LdI128:
        push(P.I128)
        break
      case Opcode.LdI256:
        push(P.I256)
        break
      case Opcode.LdConst:
        push(m.constantPool[ins.index]!.type)
        break
      case Opcode.LdTrue:
      case Opcode.LdFalse:
        push(P.Bool)
        break
      case Opcode.CopyLoc:
      case Opcode.MoveLoc:
        push(locals[ins.index] ?? UNKNOWN)
        break
      case Opcode.MutBorrowLoc:
      case Opcode.ImmBorrowLoc:
        push({ _tag: "Reference", to: locals[ins.index] ?? UNKNOWN })
        break
      case Opcode.MutBorrowField:
      case Opcode.ImmBorrowField: {
        pop()
        const fh = m.fieldHandles[ins.index]!
        push({ _tag: "Reference", to: fieldsOf(m.structDefs[fh.owner]!.fieldInformation, 0)[fh.field] ?? UNKNOWN })
        break
      }
      case Opcode.MutBorrowFieldGeneric:
      case Opcode.ImmBorrowFieldGeneric: {
        pop()
        const fi = m.fieldInstantiations[ins.index]!
        const fh = m.fieldHandles[fi.handle]!
        const t = fieldsOf(m.structDefs[fh.owner]!.fieldInformation, 0)[fh.field] ?? UNKNOWN
        push({ _tag: "Reference", to: subst(t, sig(fi.typeParameters)) })
        break
      }
      case Opcode.ImmBorrowVariantField:
      case Opcode.MutBorrowVariantField: {
        pop()
        const vh = m.variantFieldHandles[ins.index]!
        const t = fieldsOf(m.structDefs[vh.struct]!.fieldInformation, vh.variants[0] ?? 0)[vh.field] ?? UNKNOWN
        push({ _tag: "Reference", to: t })
        break
      }
      case Opcode.ImmBorrowVariantFieldGeneric:
      case Opcode.MutBorrowVariantFieldGeneric: {
        pop()
        const vi = m.variantFieldInstantiations[ins.index]!
        const vh = m.variantFieldHandles[vi.handle]!
        const t = fieldsOf(m.structDefs[vh.struct]!.fieldInformation, vh.variants[0] ?? 0)[vh.field] ?? UNKNOWN
        push({ _tag: "Reference", to: subst(t, sig(vi.typeParameters)) })
        break
      }
      case Opcode.Call:
        callEffect(ins.index, [])
        break
      case Opcode.CallGeneric: {
        const fi = m.functionInstantiations[ins.index]!
        callEffect(fi.handle, sig(fi.typeParameters))
        break
      }
      case Opcode.Pack: {
        popN(fieldsOf(m.structDefs[ins.index]!.fieldInformation, 0).length)
        push(structType(ins.index, []))
        break
      }
      case Opcode.PackGeneric: {
        const si = m.structDefInstantiations[ins.index]!
        popN(fieldsOf(m.structDefs[si.def]!.fieldInformation, 0).length)
        push(structType(si.def, sig(si.typeParameters)))
        break
      }
      case Opcode.Unpack:
        pop()
        for (const f of fieldsOf(m.structDefs[ins.index]!.fieldInformation, 0)) push(f)
        break
      case Opcode.UnpackGeneric: {
        pop()
        const si = m.structDefInstantiations[ins.index]!
        const args = sig(si.typeParameters)
        for (const f of fieldsOf(m.structDefs[si.def]!.fieldInformation, 0)) push(subst(f, args))
        break
      }
      case Opcode.PackVariant: {
        const vh = m.structVariantHandles[ins.index]!
        popN(fieldsOf(m.structDefs[vh.struct]!.fieldInformation, vh.variant).length)
        push(structType(vh.struct, []))
        break
      }
      case Opcode.PackVariantGeneric: {
        const vi = m.structVariantInstantiations[ins.index]!
        const vh = m.structVariantHandles[vi.handle]!
        popN(fieldsOf(m.structDefs[vh.struct]!.fieldInformation, vh.variant).length)
        push(structType(vh.struct, sig(vi.typeParameters)))
        break
      }
      case Opcode.UnpackVariant: {
        pop()
        const vh = m.structVariantHandles[ins.index]!
        for (const f of fieldsOf(m.structDefs[vh.struct]!.fieldInformation, vh.variant)) push(f)
        break
      }
      case Opcode.UnpackVariantGeneric: {
        pop()
        const vi = m.structVariantInstantiations[ins.index]!
        const vh = m.structVariantHandles[vi.handle]!
        const args = sig(vi.typeParameters)
        for (const f of fieldsOf(m.structDefs[vh.struct]!.fieldInformation, vh.variant)) push(subst(f, args))
        break
      }
      case Opcode.TestVariant:
      case Opcode.TestVariantGeneric:
        pop()
        push(P.Bool)
        break
      case Opcode.ReadRef:
        push(deref(pop()))
        break
      case Opcode.WriteRef:
        popN(2)
        break
      case Opcode.FreezeRef:
        break
      case Opcode.Add:
      case Opcode.Sub:
      case Opcode.Mul:
      case Opcode.Mod:
      case Opcode.Div:
      case Opcode.BitOr:
      case Opcode.BitAnd:
      case Opcode.Xor:
      case Opcode.Shl:
      case Opcode.Shr: {
        pop()
        const l = pop()
        const k = TOKEN_KIND[l._tag]
        if (k !== undefined) kinds[pc] = k
        push(l)
        break
      }
      case Opcode.Negate: {
        const l = pop()
        const k = TOKEN_KIND[l._tag]
        if (k !== undefined) kinds[pc] = k
        push(l)
        break
      }
      case Opcode.Or:
      case Opcode.And:
      case Opcode.Eq:
      case Opcode.Neq:
      case Opcode.Lt:
      case Opcode.Gt:
      case Opcode.Le:
      case Opcode.Ge:
        popN(2)
        push(P.Bool)
        break
      case Opcode.Not:
      case Opcode.Exists:
      case Opcode.ExistsGeneric:
        pop()
        push(P.Bool)
        break
      case Opcode.Nop:
        break
      case Opcode.MutBorrowGlobal:
      case Opcode.ImmBorrowGlobal:
        pop()
        push({ _tag: "Reference", to: structType(ins.index, []) })
        break
      case Opcode.MutBorrowGlobalGeneric:
      case Opcode.ImmBorrowGlobalGeneric: {
        pop()
        const si = m.structDefInstantiations[ins.index]!
        push({ _tag: "Reference", to: structType(si.def, sig(si.typeParameters)) })
        break
      }
      case Opcode.MoveFrom:
        pop()
        push(structType(ins.index, []))
        break
      case Opcode.MoveFromGeneric: {
        pop()
        const si = m.structDefInstantiations[ins.index]!
        push(structType(si.def, sig(si.typeParameters)))
        break
      }
      case Opcode.MoveTo:
      case Opcode.MoveToGeneric:
        popN(2)
        break
      case Opcode.CastU8:
        pop()
        push(P.U8)
        break
      case Opcode.CastU16:
        pop()
        push(P.U16)
        break
      case Opcode.CastU32:
        pop()
        push(P.U32)
        break
      case Opcode.CastU64:
        pop()
        push(P.U64)
        break
      case Opcode.CastU128:
        pop()
        push(P.U128)
        break
      case Opcode.CastU256:
        pop()
        push(P.U256)
        break
      case Opcode.CastI8:
        pop()
        push(P.I8)
        break
      case Opcode.CastI16:
        pop()
        push(P.I16)
        break
      case Opcode.CastI32:
        pop()
        push(P.I32)
        break
      case Opcode.CastI64:
        pop()
        push(P.I64)
        break
      case Opcode.CastI128:
        pop()
        push(P.I128)
        break
      case Opcode.CastI256:
        pop()
        push(P.I256)
        break
      case Opcode.VecPack: {
        popN(Number(ins.count))
        push({ _tag: "Vector", element: sig(ins.index)[0] ?? UNKNOWN })
        break
      }
      case Opcode.VecLen:
        pop()
        push(P.U64)
        break
      case Opcode.VecImmBorrow:
      case Opcode.VecMutBorrow:
        pop()
        push({ _tag: "Reference", to: vecElem(pop()) })
        break
      case Opcode.VecPushBack:
        popN(2)
        break
      case Opcode.VecPopBack:
        push(vecElem(pop()))
        break
      case Opcode.VecUnpack: {
        pop()
        const e = sig(ins.index)[0] ?? UNKNOWN
        for (let i = 0n; i < ins.count && i < 65536n; i++) push(e)
        break
      }
      case Opcode.VecSwap:
        popN(3)
        break
      case Opcode.PackClosure:
      case Opcode.PackClosureGeneric: {
        let c = 0
        for (let mask = ins.mask; mask > 0n; mask >>= 1n) if (mask & 1n) c++
        popN(c)
        push(UNKNOWN)
        break
      }
      case Opcode.CallClosure: {
        const ft = sig(ins.index)[0]
        pop()
        if (ft !== undefined && ft._tag === "Function") {
          popN(ft.args.length)
          for (const r of ft.results) push(r)
        }
        break
      }
    }
  }
  return kinds
}
