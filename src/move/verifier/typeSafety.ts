/**
 * Type safety of function bodies (the reference's `stack_usage_verifier.rs` then `type_safety.rs`,
 * per function, in that order). Without it the interpreter, which trusts types, runs whatever a
 * publisher wrote: a module could pack its own `struct Fake { value: u64 }` and hand it to
 * `0x1::coin::deposit<AptosCoin>` as a `Coin<AptosCoin>`, minting money.
 *
 * For every function definition with code:
 * 1. stack usage (`typeSafetyStackUsage.ts`): every basic block starts and ends with an empty
 *    operand stack and never pops more than it has;
 * 2. an abstract interpretation of each basic block over a stack of `SignatureToken`s, starting
 *    empty (1. is what makes blocks independent; values cross blocks only through locals, whose types
 *    are declared: the handle's parameters then the code unit's locals). Each instruction checks its
 *    operands' types and pushes its results', generic instructions with their instantiation's type
 *    arguments substituted; abilities are checked where the reference checks them (CopyLoc and
 *    ReadRef need copy, Pop, WriteRef, Eq and Neq drop, global storage key).
 *
 * Checked on top of the reference's type-safety rules, because nothing else here checks them yet and
 * each would otherwise be a hole the rules above rely on (the reference checks them in other passes):
 * - handles name distinct structs and functions, and definitions are of this module's handles, each
 *   once (`check_duplication`, see `typeSafetyHandles.ts`): otherwise a module could define, pack
 *   and unpack another module's struct, or pack through one definition and unpack through another;
 * - LdConst loads only constants of primitive or vector types (`constants`);
 * - generic opcodes name generic members and plain ones plain members (`instruction_consistency`),
 *   instantiations have as many type arguments as the member has type parameters, type arguments hold
 *   no references and satisfy the member's ability constraints (`signature_v2`), closure masks name
 *   parameters that exist.
 * Not checked here: that handles of other modules agree with those modules (`dependencies.ts`), and
 * control flow (`controlFlow.ts`), locals safety, reference safety and acquires (their own passes,
 * after this one: `index.ts`).
 *
 * Signed integers (v9): no reference source with them was at hand, so their rules are inferred, on
 * the accepting side: Negate needs a signed integer, and casts, arithmetic, comparisons, bitwise
 * operations and shifts take signed integers wherever they take unsigned ones.
 *
 * The deserializer's bounds checker has already put every index in range; what it does not
 * guarantee (arities, type parameter indices of instantiations, a vector instruction's signature
 * holding one type) is checked here and refused, never trusted.
 */
import type { CompiledModule, FunctionHandle, Instruction, StructDefinition } from "../binary/CompiledModule.js"
import { Ability } from "../binary/CompiledModule.js"
import { Opcode } from "../binary/Opcode.js"
import { primitiveTokens as P, type SignatureToken } from "../binary/SignatureToken.js"
import type { StatusName } from "../vm/StatusCode.js"
import { abilitiesOf, UnknownTypeParameter } from "./abilities.js"
import {
  assignable,
  containsReference,
  instantiate,
  isInteger,
  isReference,
  isConstantType,
  isSignedInteger,
  MissingTypeArgument,
  sameToken,
  typeParametersWithin
} from "./typeSafetyTokens.js"
import { verifyHandles } from "./typeSafetyHandles.js"
import { blockLeaders, verifyStackUsage } from "./typeSafetyStackUsage.js"
import type { VerifyFailure } from "./VerifyFailure.js"

/**
 * `Opcode` held under a local name: read through the module's binding (vitest's transform), each
 * `Opcode.X` of the switches cost a lookup; the framework's type safety took 297 ms, now 31.
 */
const O = Opcode

/** Refuses the module or script `m` (a script through `scriptAsModule`), or undefined if it passes. */
export const verifyTypeSafety = (m: CompiledModule): VerifyFailure | undefined => {
  const handles = verifyHandles(m)
  if (handles !== undefined) return handles
  const checker = checkerFor(m)
  for (let f = 0; f < m.functionDefs.length; f++) {
    const def = m.functionDefs[f]!
    if (def.code === undefined) continue
    const handle = m.functionHandles[def.function]!
    const leaders = blockLeaders(def.code.code)
    const stack = verifyStackUsage(m, handle, def.code.code, leaders, f)
    if (stack !== undefined) return stack
    const types = verifyFunction(checker, f, handle, def.code.locals, def.code.code, leaders)
    if (types !== undefined) return types
  }
  return undefined
}

/** Thrown inside `verifyFunction` and turned into its failure at the current offset. */
class Refused {
  constructor(
    readonly status: StatusName,
    readonly message: string
  ) {}
}

const COPY_DROP = Ability.Copy | Ability.Drop
const COPY_DROP_STORE = Ability.Copy | Ability.Drop | Ability.Store
const BYTES: SignatureToken = { _tag: "Vector", element: P.U8 }
const NO_TYPE_ARGS: ReadonlyArray<SignatureToken> = []

const referenceTo = (mutable: boolean, to: SignatureToken): SignatureToken =>
  mutable ? { _tag: "MutableReference", to } : { _tag: "Reference", to }

/** The element type of `&vector<T>` (unless `mutableOnly`) or `&mut vector<T>`. */
const vectorElement = (ref: SignatureToken, mutableOnly: boolean): SignatureToken | undefined => {
  if (ref._tag === "MutableReference" || (ref._tag === "Reference" && !mutableOnly))
    return ref.to._tag === "Vector" ? ref.to.element : undefined
  return undefined
}

/**
 * The state of one module's check: the function being checked (its locals' and returns' types, its
 * type parameters' constraints) and the abstract operand stack, reused from function to function so
 * that checking allocates little besides the types it builds.
 */
interface Checker {
  readonly m: CompiledModule
  readonly stack: SignatureToken[]
  /** `Struct(handle)` tokens of non-generic structs, built once per handle. */
  readonly structTokens: Array<SignatureToken | undefined>
  /** Type parameter constraints per struct handle, built once per handle. */
  readonly structConstraints: Array<ReadonlyArray<number> | undefined>
  typeParameters: ReadonlyArray<number>
  parameters: ReadonlyArray<SignatureToken>
  locals: ReadonlyArray<SignatureToken>
  returns: ReadonlyArray<SignatureToken>
}

const checkerFor = (m: CompiledModule): Checker => ({
  m,
  stack: [],
  structTokens: [],
  structConstraints: [],
  typeParameters: [],
  parameters: [],
  locals: [],
  returns: []
})

const refuse = (status: StatusName, message: string): never => {
  throw new Refused(status, message)
}

// Stack usage has already been verified, so a pop never finds the stack empty; checked anyway.
const pop = (c: Checker): SignatureToken => c.stack.pop() ?? refuse("EMPTY_VALUE_STACK", "pop from an empty stack")

const abilities = (c: Checker, t: SignatureToken): number => abilitiesOf(c.m, t, c.typeParameters)

const local = (c: Checker, i: number): SignatureToken =>
  i < c.parameters.length ? c.parameters[i]! : c.locals[i - c.parameters.length]!

const materialize = (c: Checker, structHandle: number, typeArgs: ReadonlyArray<SignatureToken>): SignatureToken => {
  if (typeArgs.length !== 0) return { _tag: "StructInstantiation", handle: structHandle, typeArgs }
  let t = c.structTokens[structHandle]
  if (t === undefined) c.structTokens[structHandle] = t = { _tag: "Struct", handle: structHandle }
  return t
}

const constraintsOfStruct = (c: Checker, def: StructDefinition): ReadonlyArray<number> => {
  let out = c.structConstraints[def.structHandle]
  if (out === undefined)
    c.structConstraints[def.structHandle] = out = c.m.structHandles[def.structHandle]!.typeParameters.map(
      (p) => p.constraints
    )
  return out
}

/** The type arguments at signature `sig` for a generic member with these constraints, checked. */
const typeArguments = (c: Checker, sig: number, constraints: ReadonlyArray<number>): ReadonlyArray<SignatureToken> => {
  const args = c.m.signatures[sig]!
  if (constraints.length === 0) refuse("GENERIC_MEMBER_OPCODE_MISMATCH", "generic instruction on a non-generic member")
  if (args.length !== constraints.length)
    refuse("NUMBER_OF_TYPE_ARGUMENTS_MISMATCH", `${args.length} type arguments for ${constraints.length} parameters`)
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!
    if (containsReference(a)) refuse("INVALID_SIGNATURE_TOKEN", "reference in a type argument")
    if (!typeParametersWithin(a, c.typeParameters.length))
      refuse("INDEX_OUT_OF_BOUNDS", `type argument ${i} names a type parameter the function lacks`)
    const need = constraints[i]!
    if ((abilities(c, a) & need) !== need) refuse("CONSTRAINT_NOT_SATISFIED", `type argument ${i} lacks abilities`)
  }
  return args
}

/** A plain (non-generic) instruction must name a member without type parameters. */
const plain = (typeParameters: ReadonlyArray<unknown>): void => {
  if (typeParameters.length !== 0) refuse("GENERIC_MEMBER_OPCODE_MISMATCH", "plain instruction on a generic member")
}

interface StructOperand {
  readonly def: StructDefinition
  readonly variant: number | undefined
  readonly args: ReadonlyArray<SignatureToken>
}

/** A struct definition and its type arguments, from a plain (`generic` false) or generic operand. */
const structOperand = (c: Checker, index: number, generic: boolean): StructOperand => {
  const m = c.m
  if (!generic) {
    const def = m.structDefs[index]!
    plain(m.structHandles[def.structHandle]!.typeParameters)
    return { def, variant: undefined, args: NO_TYPE_ARGS }
  }
  const inst = m.structDefInstantiations[index]!
  const def = m.structDefs[inst.def]!
  return { def, variant: undefined, args: typeArguments(c, inst.typeParameters, constraintsOfStruct(c, def)) }
}

/** The enum, variant and type arguments of a (generic) variant instruction's operand. */
const variantOperand = (c: Checker, index: number, generic: boolean): StructOperand => {
  const m = c.m
  const h = m.structVariantHandles[generic ? m.structVariantInstantiations[index]!.handle : index]!
  const def = m.structDefs[h.struct]!
  if (!generic) {
    plain(m.structHandles[def.structHandle]!.typeParameters)
    return { def, variant: h.variant, args: NO_TYPE_ARGS }
  }
  const sig = m.structVariantInstantiations[index]!.typeParameters
  return { def, variant: h.variant, args: typeArguments(c, sig, constraintsOfStruct(c, def)) }
}

/** Field types of a struct (variant undefined) or of one variant, instantiated. */
const fieldTypes = (s: StructOperand): ReadonlyArray<SignatureToken> => {
  const fi = s.def.fieldInformation
  const fields =
    s.variant === undefined
      ? fi._tag === "Declared"
        ? fi.fields
        : undefined
      : fi._tag === "DeclaredVariants"
        ? fi.variants[s.variant]?.fields
        : undefined
  if (fields === undefined) throw new Refused("PACK_TYPE_MISMATCH_ERROR", "struct has no such fields")
  const out: SignatureToken[] = new Array(fields.length)
  for (let i = 0; i < fields.length; i++) out[i] = instantiate(fields[i]!.type, s.args)
  return out
}

const pack = (c: Checker, s: StructOperand): void => {
  const fields = fieldTypes(s)
  for (let i = fields.length - 1; i >= 0; i--)
    if (!assignable(fields[i]!, pop(c))) refuse("PACK_TYPE_MISMATCH_ERROR", `field ${i} has the wrong type`)
  c.stack.push(materialize(c, s.def.structHandle, s.args))
}

const unpack = (c: Checker, s: StructOperand): void => {
  if (!sameToken(pop(c), materialize(c, s.def.structHandle, s.args)))
    refuse("UNPACK_TYPE_MISMATCH_ERROR", "unpacked value is not of the struct's type")
  for (const t of fieldTypes(s)) c.stack.push(t)
}

const testVariant = (c: Checker, s: StructOperand): void => {
  const r = pop(c)
  if (!isReference(r) || !sameToken((r as { to: SignatureToken }).to, materialize(c, s.def.structHandle, s.args)))
    refuse("TEST_VARIANT_TYPE_MISMATCH_ERROR", "tested value is not a reference to the enum")
  c.stack.push(P.Bool)
}

/**
 * ImmBorrowField and friends: the operand is a reference (mutable for a mutable borrow) to the
 * field's owner struct, instantiated; the result a reference to the field's (instantiated) type.
 * For a variant field, every listed variant must have that field at the same type.
 */
const borrowField = (
  c: Checker,
  mutable: boolean,
  def: StructDefinition,
  variants: ReadonlyArray<number> | undefined,
  field: number,
  args: ReadonlyArray<SignatureToken>
): void => {
  const r = pop(c)
  if (mutable && r._tag !== "MutableReference") refuse("BORROWFIELD_TYPE_MISMATCH_ERROR", "mutable borrow through &")
  if (!isReference(r) || !sameToken((r as { to: SignatureToken }).to, materialize(c, def.structHandle, args)))
    refuse("BORROWFIELD_TYPE_MISMATCH_ERROR", "borrowed value is not a reference to the field's struct")
  const fi = def.fieldInformation
  let fieldType: SignatureToken | undefined
  if (variants === undefined) {
    const f = fi._tag === "Declared" ? fi.fields[field] : undefined
    if (f === undefined) throw new Refused("BORROWFIELD_BAD_FIELD_ERROR", "no such field")
    fieldType = instantiate(f.type, args)
  } else {
    if (variants.length === 0) refuse("ZERO_VARIANTS_ERROR", "variant field handle without variants")
    for (const v of variants) {
      const f = fi._tag === "DeclaredVariants" ? fi.variants[v]?.fields[field] : undefined
      if (f === undefined) throw new Refused("BORROWFIELD_BAD_FIELD_ERROR", `variant ${v} has no field ${field}`)
      const t = instantiate(f.type, args)
      if (fieldType === undefined) fieldType = t
      else if (!sameToken(fieldType, t))
        refuse("BORROWFIELD_TYPE_MISMATCH_ERROR", "variants disagree on the field's type")
    }
  }
  c.stack.push(referenceTo(mutable, fieldType!))
}

/** Exists, BorrowGlobal, MoveFrom and MoveTo: the struct type, which must have key. */
const keyStruct = (c: Checker, s: StructOperand, missingKey: StatusName): SignatureToken => {
  const t = materialize(c, s.def.structHandle, s.args)
  if ((abilities(c, t) & Ability.Key) === 0) refuse(missingKey, "struct type without key")
  return t
}

const call = (c: Checker, h: FunctionHandle, args: ReadonlyArray<SignatureToken>): void => {
  const params = c.m.signatures[h.parameters]!
  for (let i = params.length - 1; i >= 0; i--)
    if (!assignable(instantiate(params[i]!, args), pop(c)))
      refuse("CALL_TYPE_MISMATCH_ERROR", `argument ${i} has the wrong type`)
  for (const r of c.m.signatures[h.returns]!) c.stack.push(instantiate(r, args))
}

const captured = (mask: bigint, i: number): boolean => ((mask >> BigInt(i)) & 1n) === 1n

/**
 * PackClosure(Generic): pops the captured arguments (mask bit i set: parameter i captured), none a
 * reference; pushes the function type of the remaining parameters, with the abilities of the
 * function (store only if persistent) narrowed by those of the captured values.
 */
const packClosure = (c: Checker, h: FunctionHandle, args: ReadonlyArray<SignatureToken>, mask: bigint): void => {
  const params = c.m.signatures[h.parameters]!
  if (mask >> BigInt(params.length) !== 0n) refuse("INVALID_CLOSURE_MASK", "mask captures a missing parameter")
  let closureAbilities = h.attributes.some((a) => a._tag === "Persistent") ? COPY_DROP_STORE : COPY_DROP
  for (let i = params.length - 1; i >= 0; i--) {
    if (!captured(mask, i)) continue
    const arg = pop(c)
    closureAbilities &= abilities(c, arg)
    const p = params[i]!
    if (!assignable(instantiate(p, args), arg)) refuse("PACK_TYPE_MISMATCH_ERROR", "captured argument type mismatch")
    if (isReference(p)) refuse("PACK_TYPE_MISMATCH_ERROR", "captured argument must not be a reference")
  }
  const rest = params.filter((_, i) => !captured(mask, i))
  const results = c.m.signatures[h.returns]!
  const fn: SignatureToken = { _tag: "Function", args: rest, results, abilities: closureAbilities }
  c.stack.push(instantiate(fn, args))
}

/** The one element type a vector instruction's signature operand must hold. */
const elementType = (c: Checker, sig: number): SignatureToken => {
  const s = c.m.signatures[sig]!
  if (s.length !== 1) refuse("NUMBER_OF_TYPE_ARGUMENTS_MISMATCH", "vector instruction signature must hold one type")
  const e = s[0]!
  if (containsReference(e)) refuse("INVALID_SIGNATURE_TOKEN", "vector of references")
  if (!typeParametersWithin(e, c.typeParameters.length))
    refuse("INDEX_OUT_OF_BOUNDS", "element type names a type parameter the function lacks")
  return e
}

const vectorOperand = (c: Checker, mutableOnly: boolean, e: SignatureToken): void => {
  const v = vectorElement(pop(c), mutableOnly)
  if (v === undefined || !sameToken(v, e)) refuse("TYPE_MISMATCH", "operand is not a reference to the vector")
}

const binaryInteger = (c: Checker, toBool: boolean): void => {
  const a = pop(c)
  const b = pop(c)
  if (!isInteger(a) || !sameToken(a, b))
    refuse("INTEGER_OP_TYPE_MISMATCH_ERROR", "operands are not the same integer type")
  c.stack.push(toBool ? P.Bool : a)
}

const cast = (c: Checker, to: SignatureToken): void => {
  if (!isInteger(pop(c))) refuse("INTEGER_OP_TYPE_MISMATCH_ERROR", "cast of a non-integer")
  c.stack.push(to)
}

/** The transfer function: checks `ins`'s operands on the abstract stack and pushes its results. */
const step = (c: Checker, ins: Instruction): void => {
  const m = c.m
  const stack = c.stack
  switch (ins.op) {
    case O.Pop:
      if ((abilities(c, pop(c)) & Ability.Drop) === 0)
        refuse("POP_WITHOUT_DROP_ABILITY", "popped value cannot be dropped")
      return
    case O.BrTrue:
    case O.BrFalse:
      if (pop(c)._tag !== "Bool") refuse("BR_TYPE_MISMATCH_ERROR", "branch condition is not a bool")
      return
    case O.StLoc:
      if (!assignable(local(c, ins.index), pop(c)))
        refuse("STLOC_TYPE_MISMATCH_ERROR", `local ${ins.index} has another type`)
      return
    case O.Abort:
      if (pop(c)._tag !== "U64") refuse("ABORT_TYPE_MISMATCH_ERROR", "abort code is not a u64")
      return
    case O.AbortMsg: {
      const message = pop(c)
      if (!sameToken(message, BYTES) || pop(c)._tag !== "U64")
        refuse("ABORT_TYPE_MISMATCH_ERROR", "abort takes a u64 code and a vector<u8> message")
      return
    }
    case O.Ret:
      for (let i = c.returns.length - 1; i >= 0; i--)
        if (!assignable(c.returns[i]!, pop(c)))
          refuse("RET_TYPE_MISMATCH_ERROR", `return value ${i} has the wrong type`)
      return
    case O.Branch:
    case O.Nop:
      return
    case O.FreezeRef: {
      const r = pop(c)
      if (r._tag !== "MutableReference")
        throw new Refused("FREEZEREF_TYPE_MISMATCH_ERROR", "freeze of a non-&mut value")
      stack.push({ _tag: "Reference", to: r.to })
      return
    }
    case O.MutBorrowField:
    case O.ImmBorrowField: {
      const fh = m.fieldHandles[ins.index]!
      const def = m.structDefs[fh.owner]!
      plain(m.structHandles[def.structHandle]!.typeParameters)
      borrowField(c, ins.op === O.MutBorrowField, def, undefined, fh.field, NO_TYPE_ARGS)
      return
    }
    case O.MutBorrowFieldGeneric:
    case O.ImmBorrowFieldGeneric: {
      const inst = m.fieldInstantiations[ins.index]!
      const fh = m.fieldHandles[inst.handle]!
      const def = m.structDefs[fh.owner]!
      const args = typeArguments(c, inst.typeParameters, constraintsOfStruct(c, def))
      borrowField(c, ins.op === O.MutBorrowFieldGeneric, def, undefined, fh.field, args)
      return
    }
    case O.MutBorrowVariantField:
    case O.ImmBorrowVariantField: {
      const vh = m.variantFieldHandles[ins.index]!
      const def = m.structDefs[vh.struct]!
      plain(m.structHandles[def.structHandle]!.typeParameters)
      borrowField(c, ins.op === O.MutBorrowVariantField, def, vh.variants, vh.field, NO_TYPE_ARGS)
      return
    }
    case O.MutBorrowVariantFieldGeneric:
    case O.ImmBorrowVariantFieldGeneric: {
      const inst = m.variantFieldInstantiations[ins.index]!
      const vh = m.variantFieldHandles[inst.handle]!
      const def = m.structDefs[vh.struct]!
      const args = typeArguments(c, inst.typeParameters, constraintsOfStruct(c, def))
      borrowField(c, ins.op === O.MutBorrowVariantFieldGeneric, def, vh.variants, vh.field, args)
      return
    }
    case O.LdU8:
      stack.push(P.U8)
      return
    case O.LdU16:
      stack.push(P.U16)
      return
    case O.LdU32:
      stack.push(P.U32)
      return
    case O.LdU64:
      stack.push(P.U64)
      return
    case O.LdU128:
      stack.push(P.U128)
      return
    case O.LdU256:
      stack.push(P.U256)
      return
    case O.LdI8:
      stack.push(P.I8)
      return
    case O.LdI16:
      stack.push(P.I16)
      return
    case O.LdI32:
      stack.push(P.I32)
      return
    case O.LdI64:
      stack.push(P.I64)
      return
    case O.LdI128:
      stack.push(P.I128)
      return
    case O.LdI256:
      stack.push(P.I256)
      return
    case O.LdConst: {
      const t = m.constantPool[ins.index]!.type
      if (!isConstantType(t)) refuse("INVALID_CONSTANT_TYPE", "constants hold only primitives and vectors of them")
      stack.push(t)
      return
    }
    case O.LdTrue:
    case O.LdFalse:
      stack.push(P.Bool)
      return
    case O.CopyLoc: {
      const t = local(c, ins.index)
      if ((abilities(c, t) & Ability.Copy) === 0)
        refuse("COPYLOC_WITHOUT_COPY_ABILITY", `local ${ins.index} cannot be copied`)
      stack.push(t)
      return
    }
    case O.MoveLoc:
      stack.push(local(c, ins.index))
      return
    case O.MutBorrowLoc:
    case O.ImmBorrowLoc: {
      const t = local(c, ins.index)
      if (isReference(t)) refuse("BORROWLOC_REFERENCE_ERROR", `local ${ins.index} is a reference`)
      stack.push(referenceTo(ins.op === O.MutBorrowLoc, t))
      return
    }
    case O.Call: {
      const h = m.functionHandles[ins.index]!
      plain(h.typeParameters)
      call(c, h, NO_TYPE_ARGS)
      return
    }
    case O.CallGeneric: {
      const inst = m.functionInstantiations[ins.index]!
      const h = m.functionHandles[inst.handle]!
      call(c, h, typeArguments(c, inst.typeParameters, h.typeParameters))
      return
    }
    case O.PackClosure: {
      const h = m.functionHandles[ins.index]!
      plain(h.typeParameters)
      packClosure(c, h, NO_TYPE_ARGS, ins.mask)
      return
    }
    case O.PackClosureGeneric: {
      const inst = m.functionInstantiations[ins.index]!
      const h = m.functionHandles[inst.handle]!
      packClosure(c, h, typeArguments(c, inst.typeParameters, h.typeParameters), ins.mask)
      return
    }
    case O.CallClosure: {
      const t = m.signatures[ins.index]![0]
      if (t?._tag !== "Function")
        throw new Refused("CLOSURE_CALL_REQUIRES_FUNCTION", "CallClosure needs a function type")
      if (!typeParametersWithin(t, c.typeParameters.length))
        refuse("INDEX_OUT_OF_BOUNDS", "closure type names a type parameter the function lacks")
      if (!assignable(t, pop(c))) refuse("CALL_TYPE_MISMATCH_ERROR", "closure type mismatch")
      for (let i = t.args.length - 1; i >= 0; i--)
        if (!assignable(t.args[i]!, pop(c))) refuse("CALL_TYPE_MISMATCH_ERROR", `argument ${i} has the wrong type`)
      for (const r of t.results) stack.push(r)
      return
    }
    case O.Pack:
    case O.PackGeneric:
      pack(c, structOperand(c, ins.index, ins.op === O.PackGeneric))
      return
    case O.Unpack:
    case O.UnpackGeneric:
      unpack(c, structOperand(c, ins.index, ins.op === O.UnpackGeneric))
      return
    case O.PackVariant:
    case O.PackVariantGeneric:
      pack(c, variantOperand(c, ins.index, ins.op === O.PackVariantGeneric))
      return
    case O.UnpackVariant:
    case O.UnpackVariantGeneric:
      unpack(c, variantOperand(c, ins.index, ins.op === O.UnpackVariantGeneric))
      return
    case O.TestVariant:
    case O.TestVariantGeneric:
      testVariant(c, variantOperand(c, ins.index, ins.op === O.TestVariantGeneric))
      return
    case O.ReadRef: {
      const r = pop(c)
      if (r._tag !== "Reference" && r._tag !== "MutableReference")
        throw new Refused("READREF_TYPE_MISMATCH_ERROR", "read through a non-reference")
      if ((abilities(c, r.to) & Ability.Copy) === 0)
        refuse("READREF_WITHOUT_COPY_ABILITY", "read value cannot be copied")
      stack.push(r.to)
      return
    }
    case O.WriteRef: {
      const r = pop(c)
      const value = pop(c)
      if (r._tag !== "MutableReference")
        throw new Refused("WRITEREF_NO_MUTABLE_REFERENCE_ERROR", "write through a non-&mut")
      if ((abilities(c, r.to) & Ability.Drop) === 0)
        refuse("WRITEREF_WITHOUT_DROP_ABILITY", "overwritten value cannot be dropped")
      if (!assignable(r.to, value)) refuse("WRITEREF_TYPE_MISMATCH_ERROR", "written value has the wrong type")
      return
    }
    case O.CastU8:
      cast(c, P.U8)
      return
    case O.CastU16:
      cast(c, P.U16)
      return
    case O.CastU32:
      cast(c, P.U32)
      return
    case O.CastU64:
      cast(c, P.U64)
      return
    case O.CastU128:
      cast(c, P.U128)
      return
    case O.CastU256:
      cast(c, P.U256)
      return
    case O.CastI8:
      cast(c, P.I8)
      return
    case O.CastI16:
      cast(c, P.I16)
      return
    case O.CastI32:
      cast(c, P.I32)
      return
    case O.CastI64:
      cast(c, P.I64)
      return
    case O.CastI128:
      cast(c, P.I128)
      return
    case O.CastI256:
      cast(c, P.I256)
      return
    case O.Negate: {
      const t = pop(c)
      if (!isSignedInteger(t)) refuse("INTEGER_OP_TYPE_MISMATCH_ERROR", "negation of a non-signed-integer")
      stack.push(t)
      return
    }
    case O.Add:
    case O.Sub:
    case O.Mul:
    case O.Mod:
    case O.Div:
    case O.BitOr:
    case O.BitAnd:
    case O.Xor:
      binaryInteger(c, false)
      return
    case O.Lt:
    case O.Gt:
    case O.Le:
    case O.Ge:
      binaryInteger(c, true)
      return
    case O.Shl:
    case O.Shr: {
      const amount = pop(c)
      const value = pop(c)
      if (!isInteger(value) || amount._tag !== "U8")
        refuse("INTEGER_OP_TYPE_MISMATCH_ERROR", "shift needs an integer and a u8")
      stack.push(value)
      return
    }
    case O.Or:
    case O.And: {
      const a = pop(c)
      const b = pop(c)
      if (a._tag !== "Bool" || b._tag !== "Bool") refuse("BOOLEAN_OP_TYPE_MISMATCH_ERROR", "operands are not bools")
      stack.push(P.Bool)
      return
    }
    case O.Not:
      if (pop(c)._tag !== "Bool") refuse("BOOLEAN_OP_TYPE_MISMATCH_ERROR", "operand is not a bool")
      stack.push(P.Bool)
      return
    case O.Eq:
    case O.Neq: {
      const a = pop(c)
      const b = pop(c)
      if ((abilities(c, a) & Ability.Drop) === 0 || !sameToken(a, b))
        refuse("EQUALITY_OP_TYPE_MISMATCH_ERROR", "operands differ or cannot be dropped")
      stack.push(P.Bool)
      return
    }
    case O.MutBorrowGlobal:
    case O.MutBorrowGlobalGeneric:
    case O.ImmBorrowGlobal:
    case O.ImmBorrowGlobalGeneric: {
      const generic = ins.op === O.MutBorrowGlobalGeneric || ins.op === O.ImmBorrowGlobalGeneric
      const mutable = ins.op === O.MutBorrowGlobal || ins.op === O.MutBorrowGlobalGeneric
      if (pop(c)._tag !== "Address") refuse("BORROWGLOBAL_TYPE_MISMATCH_ERROR", "address operand is not an address")
      const t = keyStruct(c, structOperand(c, ins.index, generic), "BORROWGLOBAL_WITHOUT_KEY_ABILITY")
      stack.push(referenceTo(mutable, t))
      return
    }
    case O.Exists:
    case O.ExistsGeneric: {
      const s = structOperand(c, ins.index, ins.op === O.ExistsGeneric)
      keyStruct(c, s, "EXISTS_WITHOUT_KEY_ABILITY_OR_BAD_ARGUMENT")
      if (pop(c)._tag !== "Address") refuse("EXISTS_WITHOUT_KEY_ABILITY_OR_BAD_ARGUMENT", "operand is not an address")
      stack.push(P.Bool)
      return
    }
    case O.MoveFrom:
    case O.MoveFromGeneric: {
      const s = structOperand(c, ins.index, ins.op === O.MoveFromGeneric)
      const t = keyStruct(c, s, "MOVEFROM_WITHOUT_KEY_ABILITY")
      if (pop(c)._tag !== "Address") refuse("MOVEFROM_TYPE_MISMATCH_ERROR", "operand is not an address")
      stack.push(t)
      return
    }
    case O.MoveTo:
    case O.MoveToGeneric: {
      const t = keyStruct(c, structOperand(c, ins.index, ins.op === O.MoveToGeneric), "MOVETO_WITHOUT_KEY_ABILITY")
      const value = pop(c)
      const signer = pop(c)
      if (!sameToken(value, t)) refuse("MOVETO_TYPE_MISMATCH_ERROR", "moved value is not of the struct's type")
      if (signer._tag !== "Reference" || signer.to._tag !== "Signer")
        refuse("MOVETO_TYPE_MISMATCH_ERROR", "move_to needs a &signer")
      return
    }
    case O.VecPack: {
      const e = elementType(c, ins.index)
      for (let i = 0n; i < ins.count; i++)
        if (!assignable(e, pop(c))) refuse("TYPE_MISMATCH", "packed element has the wrong type")
      stack.push({ _tag: "Vector", element: e })
      return
    }
    case O.VecLen: {
      vectorOperand(c, false, elementType(c, ins.index))
      stack.push(P.U64)
      return
    }
    case O.VecImmBorrow:
    case O.VecMutBorrow: {
      const e = elementType(c, ins.index)
      const mutable = ins.op === O.VecMutBorrow
      if (pop(c)._tag !== "U64") refuse("TYPE_MISMATCH", "index is not a u64")
      vectorOperand(c, mutable, e)
      stack.push(referenceTo(mutable, e))
      return
    }
    case O.VecPushBack: {
      const e = elementType(c, ins.index)
      if (!assignable(e, pop(c))) refuse("TYPE_MISMATCH", "pushed element has the wrong type")
      vectorOperand(c, true, e)
      return
    }
    case O.VecPopBack: {
      const e = elementType(c, ins.index)
      vectorOperand(c, true, e)
      stack.push(e)
      return
    }
    case O.VecUnpack: {
      const e = elementType(c, ins.index)
      const v = pop(c)
      if (v._tag !== "Vector" || !sameToken(v.element, e)) refuse("TYPE_MISMATCH", "operand is not the vector")
      for (let i = 0n; i < ins.count; i++) stack.push(e)
      return
    }
    case O.VecSwap: {
      const e = elementType(c, ins.index)
      const j = pop(c)
      const i = pop(c)
      if (i._tag !== "U64" || j._tag !== "U64") refuse("TYPE_MISMATCH", "indices are not u64")
      vectorOperand(c, true, e)
      return
    }
    default: {
      const unknown: never = ins
      refuse("UNKNOWN_OPCODE", `unknown opcode ${(unknown as Instruction).op}`)
    }
  }
}

/** Runs the transfer function over one code unit, every basic block from an empty stack. */
const verifyFunction = (
  c: Checker,
  functionDef: number,
  handle: FunctionHandle,
  localsSignature: number,
  code: ReadonlyArray<Instruction>,
  leaders: Uint8Array
): VerifyFailure | undefined => {
  const m = c.m
  c.typeParameters = handle.typeParameters
  c.parameters = m.signatures[handle.parameters]!
  c.locals = m.signatures[localsSignature]!
  c.returns = m.signatures[handle.returns]!
  c.stack.length = 0
  let offset = 0
  try {
    for (offset = 0; offset < code.length; offset++) {
      // Stack usage guarantees the stack is empty here; starting afresh is what the reference does.
      if (leaders[offset] === 1) c.stack.length = 0
      step(c, code[offset]!)
    }
  } catch (e) {
    if (e instanceof Refused) return { status: e.status, message: e.message, functionDef, offset }
    if (e instanceof UnknownTypeParameter)
      return { status: "INDEX_OUT_OF_BOUNDS", message: e.message, functionDef, offset }
    if (e instanceof MissingTypeArgument)
      return { status: "NUMBER_OF_TYPE_ARGUMENTS_MISMATCH", message: e.message, functionDef, offset }
    throw e
  }
  return undefined
}
