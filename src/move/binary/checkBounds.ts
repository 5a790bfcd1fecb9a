/**
 * Bounds checks run after parsing (the reference's `BoundsChecker`): every index points into its
 * table, struct instantiations match their handle's arity, type parameters are in range where the
 * declaring handle is known, branch targets stay inside their code unit and locals inside the frame.
 */
import { fail } from "./BinaryError.js"
import type {
  AccessSpecifier,
  CodeUnit,
  CommonTables,
  CompiledModule,
  CompiledScript,
  ModuleHandle
} from "./CompiledModule.js"
import { opcodeInfo } from "./opcodeInfo.js"
import type { SignatureToken } from "./SignatureToken.js"

const within = (i: number | undefined, length: number, what: string): void => {
  if (i !== undefined && !(i < length))
    fail("IndexOutOfBounds", `${what} index ${i} out of bounds (table size ${length})`)
}

/** Walks a token (depth ≤ 256, guaranteed by the reader) checking struct handles and type parameters. */
const checkToken = (t: CommonTables, tok: SignatureToken, typeParamCount: number | undefined): void => {
  const stack: SignatureToken[] = [tok]
  while (stack.length > 0) {
    const s = stack.pop()!
    switch (s._tag) {
      case "Reference":
      case "MutableReference":
        stack.push(s.to)
        break
      case "Vector":
        stack.push(s.element)
        break
      case "Struct":
        within(s.handle, t.structHandles.length, "struct handle")
        if (t.structHandles[s.handle]!.typeParameters.length !== 0)
          fail("IndexOutOfBounds", `generic struct handle ${s.handle} used without type arguments`)
        break
      case "StructInstantiation":
        within(s.handle, t.structHandles.length, "struct handle")
        if (t.structHandles[s.handle]!.typeParameters.length !== s.typeArgs.length)
          fail("IndexOutOfBounds", `struct handle ${s.handle} instantiated with the wrong number of type arguments`)
        stack.push(...s.typeArgs)
        break
      case "TypeParameter":
        if (typeParamCount !== undefined) within(s.index, typeParamCount, "type parameter")
        break
      case "Function":
        stack.push(...s.args, ...s.results)
        break
    }
  }
}

const checkSignature = (t: CommonTables, sig: number, typeParamCount: number | undefined): void => {
  within(sig, t.signatures.length, "signature")
  for (const tok of t.signatures[sig]!) checkToken(t, tok, typeParamCount)
}

const checkModuleHandle = (t: CommonTables, h: ModuleHandle): void => {
  within(h.address, t.addressIdentifiers.length, "address identifier")
  within(h.name, t.identifiers.length, "identifier")
}

const checkAccess = (t: CommonTables, specs: ReadonlyArray<AccessSpecifier> | undefined): void => {
  for (const s of specs ?? []) {
    const r = s.resource
    if (r._tag === "DeclaredAtAddress") within(r.address, t.addressIdentifiers.length, "address identifier")
    if (r._tag === "DeclaredInModule") within(r.module, t.moduleHandles.length, "module handle")
    if (r._tag === "Resource" || r._tag === "ResourceInstantiation")
      within(r.structHandle, t.structHandles.length, "struct handle")
    if (r._tag === "ResourceInstantiation") within(r.typeArgs, t.signatures.length, "signature")
    const a = s.address
    if (a._tag === "Literal") within(a.address, t.addressIdentifiers.length, "address identifier")
    if (a._tag === "Parameter")
      within(a.functionInstantiation, t.functionInstantiations.length, "function instantiation")
  }
}

const checkCommon = (t: CommonTables): void => {
  for (const h of t.moduleHandles) checkModuleHandle(t, h)
  for (const h of t.structHandles) {
    within(h.module, t.moduleHandles.length, "module handle")
    within(h.name, t.identifiers.length, "identifier")
  }
  for (const sig of t.signatures) for (const tok of sig) checkToken(t, tok, undefined)
  for (const h of t.functionHandles) {
    within(h.module, t.moduleHandles.length, "module handle")
    within(h.name, t.identifiers.length, "identifier")
    checkSignature(t, h.parameters, h.typeParameters.length)
    checkSignature(t, h.returns, h.typeParameters.length)
    checkAccess(t, h.accessSpecifiers)
  }
  for (const i of t.functionInstantiations) {
    within(i.handle, t.functionHandles.length, "function handle")
    within(i.typeParameters, t.signatures.length, "signature")
  }
  for (const c of t.constantPool) checkToken(t, c.type, 0)
}

/** Sizes of the tables instruction operands point into (undefined: not a table operand). */
const operandTableSize = (t: CommonTables, m: CompiledModule | undefined, kind: string): number | undefined => {
  switch (kind) {
    case "constant":
      return t.constantPool.length
    case "functionHandle":
    case "closure":
      return t.functionHandles.length
    case "functionInst":
    case "closureGeneric":
      return t.functionInstantiations.length
    case "signature":
    case "vecCount":
      return t.signatures.length
    case "fieldHandle":
      return m?.fieldHandles.length ?? 0
    case "fieldInst":
      return m?.fieldInstantiations.length ?? 0
    case "structDef":
      return m?.structDefs.length ?? 0
    case "structDefInst":
      return m?.structDefInstantiations.length ?? 0
    case "variantFieldHandle":
      return m?.variantFieldHandles.length ?? 0
    case "variantFieldInst":
      return m?.variantFieldInstantiations.length ?? 0
    case "structVariantHandle":
      return m?.structVariantHandles.length ?? 0
    case "structVariantInst":
      return m?.structVariantInstantiations.length ?? 0
    default:
      return undefined
  }
}

const checkCode = (
  t: CommonTables,
  m: CompiledModule | undefined,
  unit: CodeUnit,
  parameters: number,
  typeParamCount: number
): void => {
  checkSignature(t, unit.locals, typeParamCount)
  const localCount = t.signatures[parameters]!.length + t.signatures[unit.locals]!.length
  const sizes = new Map<string, number | undefined>()
  for (const ins of unit.code) {
    const kind = opcodeInfo[ins.op]!.operand
    if (kind === "branch") within((ins as { offset: number }).offset, unit.code.length, "branch target")
    else if (kind === "local") within((ins as { index: number }).index, localCount, "local")
    else {
      let size = sizes.get(kind)
      if (!sizes.has(kind)) sizes.set(kind, (size = operandTableSize(t, m, kind)))
      if (size !== undefined) within((ins as { index: number }).index, size, kind)
    }
  }
}

export const checkModuleBounds = (m: CompiledModule): void => {
  checkCommon(m)
  within(m.selfModuleHandleIndex, m.moduleHandles.length, "self module handle")
  for (const h of m.friendDecls) checkModuleHandle(m, h)
  for (const d of m.structDefs) {
    within(d.structHandle, m.structHandles.length, "struct handle")
    const typeParams = m.structHandles[d.structHandle]!.typeParameters.length
    const fi = d.fieldInformation
    const fieldLists =
      fi._tag === "Declared" ? [fi.fields] : fi._tag === "DeclaredVariants" ? fi.variants.map((v) => v.fields) : []
    if (fi._tag === "DeclaredVariants") for (const v of fi.variants) within(v.name, m.identifiers.length, "identifier")
    for (const fields of fieldLists)
      for (const f of fields) {
        within(f.name, m.identifiers.length, "identifier")
        checkToken(m, f.type, typeParams)
      }
  }
  for (const i of m.structDefInstantiations) {
    within(i.def, m.structDefs.length, "struct definition")
    within(i.typeParameters, m.signatures.length, "signature")
  }
  for (const h of m.fieldHandles) {
    within(h.owner, m.structDefs.length, "struct definition")
    const fi = m.structDefs[h.owner]!.fieldInformation
    within(h.field, fi._tag === "Declared" ? fi.fields.length : 0, "field")
  }
  for (const h of m.variantFieldHandles) {
    within(h.struct, m.structDefs.length, "struct definition")
    const fi = m.structDefs[h.struct]!.fieldInformation
    const variants = fi._tag === "DeclaredVariants" ? fi.variants : []
    if (h.variants.length === 0) fail("IndexOutOfBounds", "variant field handle without variants")
    for (const v of h.variants) {
      within(v, variants.length, "variant")
      within(h.field, variants[v]!.fields.length, "field")
    }
  }
  for (const h of m.structVariantHandles) {
    within(h.struct, m.structDefs.length, "struct definition")
    const fi = m.structDefs[h.struct]!.fieldInformation
    within(h.variant, fi._tag === "DeclaredVariants" ? fi.variants.length : 0, "variant")
  }
  const insts: ReadonlyArray<[ReadonlyArray<{ handle: number; typeParameters: number }>, number, string]> = [
    [m.fieldInstantiations, m.fieldHandles.length, "field handle"],
    [m.variantFieldInstantiations, m.variantFieldHandles.length, "variant field handle"],
    [m.structVariantInstantiations, m.structVariantHandles.length, "struct variant handle"]
  ]
  for (const [table, size, what] of insts)
    for (const i of table) {
      within(i.handle, size, what)
      within(i.typeParameters, m.signatures.length, "signature")
    }
  for (const d of m.functionDefs) {
    within(d.function, m.functionHandles.length, "function handle")
    for (const a of d.acquiresGlobalResources) within(a, m.structDefs.length, "struct definition")
    const h = m.functionHandles[d.function]!
    if (d.code !== undefined) checkCode(m, m, d.code, h.parameters, h.typeParameters.length)
  }
}

export const checkScriptBounds = (s: CompiledScript): void => {
  checkCommon(s)
  checkSignature(s, s.parameters, s.typeParameters.length)
  checkAccess(s, s.accessSpecifiers)
  checkCode(s, undefined, s.code, s.parameters, s.typeParameters.length)
}
