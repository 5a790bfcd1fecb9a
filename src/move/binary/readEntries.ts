/**
 * Readers for one entry of each table kind (§1.3). Each takes a cursor bounded to its table, so an
 * entry can never read into the next table.
 */
import type { BinaryCursor } from "./BinaryCursor.js"
import { fail } from "./BinaryError.js"
import {
  ABILITY_ALL,
  type AccessSpecifier,
  type AddressSpecifier,
  type Constant,
  type FieldDefinition,
  type FieldHandle,
  type FunctionAttribute,
  type FunctionDefinition,
  type FunctionHandle,
  type Instantiation,
  type Metadata,
  type ModuleHandle,
  type ResourceSpecifier,
  type StructDefInstantiation,
  type StructDefinition,
  type StructHandle,
  type StructTypeParameter,
  type StructVariantHandle,
  type VariantFieldHandle,
  Visibility
} from "./CompiledModule.js"
import {
  ACCESS_SPECIFIER_COUNT_MAX,
  ACQUIRES_COUNT_MAX,
  ATTRIBUTE_COUNT_MAX,
  CONSTANT_SIZE_MAX,
  FIELD_COUNT_MAX,
  FIELD_OFFSET_MAX,
  LOCAL_INDEX_MAX,
  METADATA_KEY_SIZE_MAX,
  METADATA_VALUE_SIZE_MAX,
  SIGNATURE_SIZE_MAX,
  TABLE_INDEX_MAX,
  TYPE_PARAMETER_COUNT_MAX,
  VARIANT_COUNT_MAX,
  VARIANT_OFFSET_MAX
} from "./limits.js"
import { readCodeUnit } from "./readCode.js"
import { readSignatureToken } from "./readSignatureToken.js"
import type { SignatureToken } from "./SignatureToken.js"

const idx = (c: BinaryCursor, what: string): number => c.uleb(TABLE_INDEX_MAX, what)

const abilities = (c: BinaryCursor): number => c.uleb(ABILITY_ALL, "ability set")

/** Reads `count` (bounded by `max`) items; a count larger than the bytes left is refused first. */
const list = <A>(c: BinaryCursor, max: number, what: string, item: (c: BinaryCursor) => A): A[] => {
  const at = c.offset
  const n = c.uleb(max, what)
  if (n > c.end - c.offset) fail("UnexpectedEof", `${what} ${n} cannot fit in the bytes left`, at)
  const out: A[] = []
  for (let i = 0; i < n; i++) out.push(item(c))
  return out
}

const blob = (c: BinaryCursor, max: number, what: string): Uint8Array => c.fixed(c.uleb(max, what))

export const readModuleHandle = (c: BinaryCursor): ModuleHandle => {
  const address = idx(c, "address index")
  return { address, name: idx(c, "identifier index") }
}

const readStructTypeParameter = (c: BinaryCursor): StructTypeParameter => {
  const constraints = abilities(c)
  return { constraints, isPhantom: c.uleb(1, "is_phantom") === 1 }
}

export const readStructHandle = (c: BinaryCursor): StructHandle => {
  const module = idx(c, "module handle index")
  const name = idx(c, "identifier index")
  const abs = abilities(c)
  const typeParameters = list(c, TYPE_PARAMETER_COUNT_MAX, "type parameter count", readStructTypeParameter)
  return { module, name, abilities: abs, typeParameters }
}

/** Serialized options and booleans in access specifiers: 1 = none/false, 2 = some/true. */
const flag = (c: BinaryCursor, what: string): boolean => {
  const at = c.offset
  const b = c.u8()
  if (b !== 1 && b !== 2) fail("Malformed", `malformed ${what} byte ${b}`, at)
  return b === 2
}

const readResourceSpecifier = (c: BinaryCursor): ResourceSpecifier => {
  const at = c.offset
  switch (c.u8()) {
    case 1:
      return { _tag: "Any" }
    case 2:
      return { _tag: "DeclaredAtAddress", address: idx(c, "address index") }
    case 3:
      return { _tag: "DeclaredInModule", module: idx(c, "module handle index") }
    case 4:
      return { _tag: "Resource", structHandle: idx(c, "struct handle index") }
    case 5: {
      const structHandle = idx(c, "struct handle index")
      return { _tag: "ResourceInstantiation", structHandle, typeArgs: idx(c, "signature index") }
    }
    default:
      return fail("Malformed", "malformed resource specifier", at)
  }
}

const readAddressSpecifier = (c: BinaryCursor): AddressSpecifier => {
  const at = c.offset
  switch (c.u8()) {
    case 1:
      return { _tag: "Any" }
    case 2:
      return { _tag: "Literal", address: idx(c, "address index") }
    case 3: {
      const local = c.uleb(LOCAL_INDEX_MAX, "local index")
      const functionInstantiation = flag(c, "option") ? idx(c, "function instantiation index") : undefined
      return { _tag: "Parameter", local, functionInstantiation }
    }
    default:
      return fail("Malformed", "malformed address specifier", at)
  }
}

const readAccessSpecifier = (c: BinaryCursor): AccessSpecifier => {
  const at = c.offset
  const k = c.u8()
  if (k !== 1 && k !== 2) fail("Malformed", `malformed access kind ${k}`, at)
  const negated = flag(c, "bool")
  const resource = readResourceSpecifier(c)
  return { kind: k === 1 ? "Reads" : "Writes", negated, resource, address: readAddressSpecifier(c) }
}

export const readAccessSpecifiers = (c: BinaryCursor): AccessSpecifier[] | undefined =>
  flag(c, "option") ? list(c, ACCESS_SPECIFIER_COUNT_MAX, "access specifier count", readAccessSpecifier) : undefined

const readAttribute = (c: BinaryCursor): FunctionAttribute => {
  const at = c.offset
  switch (c.u8()) {
    case 1:
      return { _tag: "Persistent" }
    case 2:
      return { _tag: "ModuleLock" }
    case 3:
      return { _tag: "Pack" }
    case 4:
      return { _tag: "PackVariant", index: c.u16() }
    case 5:
      return { _tag: "Unpack" }
    case 6:
      return { _tag: "UnpackVariant", index: c.u16() }
    case 7:
      return { _tag: "TestVariant", index: c.u16() }
    case 8:
      return { _tag: "BorrowFieldImmutable", index: c.u16() }
    case 9:
      return { _tag: "BorrowFieldMutable", index: c.u16() }
    default:
      return fail("Malformed", "malformed function attribute", at)
  }
}

export const readAbilitySets = (c: BinaryCursor): number[] =>
  list(c, TYPE_PARAMETER_COUNT_MAX, "type parameter count", abilities)

export const readFunctionHandle = (c: BinaryCursor): FunctionHandle => {
  const module = idx(c, "module handle index")
  const name = idx(c, "identifier index")
  const parameters = idx(c, "signature index")
  const returns = idx(c, "signature index")
  const typeParameters = readAbilitySets(c)
  const accessSpecifiers = c.version >= 7 ? readAccessSpecifiers(c) : undefined
  const attributes = c.version >= 8 ? list(c, ATTRIBUTE_COUNT_MAX, "attribute count", readAttribute) : []
  return { module, name, parameters, returns, typeParameters, accessSpecifiers, attributes }
}

export const readInstantiation = (c: BinaryCursor): Instantiation => {
  const handle = idx(c, "handle index")
  return { handle, typeParameters: idx(c, "signature index") }
}

export const readSignature = (c: BinaryCursor): SignatureToken[] =>
  list(c, SIGNATURE_SIZE_MAX, "signature size", readSignatureToken)

export const readConstant = (c: BinaryCursor): Constant => {
  const type = readSignatureToken(c)
  return { type, data: blob(c, CONSTANT_SIZE_MAX, "constant size") }
}

export const readMetadata = (c: BinaryCursor): Metadata => {
  const key = blob(c, METADATA_KEY_SIZE_MAX, "metadata key size")
  return { key, value: blob(c, METADATA_VALUE_SIZE_MAX, "metadata value size") }
}

export const readAddress = (c: BinaryCursor): Uint8Array => c.fixed(32)

const readField = (c: BinaryCursor): FieldDefinition => {
  const name = idx(c, "identifier index")
  return { name, type: readSignatureToken(c) }
}

const readFields = (c: BinaryCursor): FieldDefinition[] => list(c, FIELD_COUNT_MAX, "field count", readField)

export const readStructDef = (c: BinaryCursor): StructDefinition => {
  const structHandle = idx(c, "struct handle index")
  const at = c.offset
  switch (c.u8()) {
    case 1:
      return { structHandle, fieldInformation: { _tag: "Native" } }
    case 2:
      return { structHandle, fieldInformation: { _tag: "Declared", fields: readFields(c) } }
    case 3: {
      if (c.version < 7) fail("FeatureNotInVersion", "enum types need bytecode v7", at)
      const variants = list(c, VARIANT_COUNT_MAX, "variant count", (c) => {
        const name = idx(c, "identifier index")
        return { name, fields: readFields(c) }
      })
      return { structHandle, fieldInformation: { _tag: "DeclaredVariants", variants } }
    }
    default:
      return fail("UnknownNativeStructFlag", "unknown struct field-information flag", at)
  }
}

export const readStructDefInst = (c: BinaryCursor): StructDefInstantiation => {
  const def = idx(c, "struct definition index")
  return { def, typeParameters: idx(c, "signature index") }
}

const NATIVE = 0x2
const ENTRY = 0x4

export const readFunctionDef = (c: BinaryCursor): FunctionDefinition => {
  const fn = idx(c, "function handle index")
  const at = c.offset
  const vis = c.u8()
  if (vis !== Visibility.Private && vis !== Visibility.Public && vis !== Visibility.Friend)
    fail("Malformed", `invalid visibility byte ${vis}`, at)
  const flagsAt = c.offset
  const flags = c.u8()
  if ((flags & ~(NATIVE | ENTRY)) !== 0)
    fail("InvalidFlagBits", `invalid function flags 0x${flags.toString(16)}`, flagsAt)
  const acquiresGlobalResources = list(c, ACQUIRES_COUNT_MAX, "acquires count", (c) =>
    idx(c, "struct definition index")
  )
  const code = (flags & NATIVE) !== 0 ? undefined : readCodeUnit(c)
  return {
    function: fn,
    visibility: vis as Visibility,
    isEntry: (flags & ENTRY) !== 0,
    acquiresGlobalResources,
    code
  }
}

export const readFieldHandle = (c: BinaryCursor): FieldHandle => {
  const owner = idx(c, "struct definition index")
  return { owner, field: c.uleb(FIELD_OFFSET_MAX, "field offset") }
}

export const readVariantFieldHandle = (c: BinaryCursor): VariantFieldHandle => {
  const struct = idx(c, "struct definition index")
  const field = c.uleb(FIELD_OFFSET_MAX, "field offset")
  const variants = list(c, VARIANT_COUNT_MAX, "variant count", (c) => c.uleb(VARIANT_OFFSET_MAX, "variant offset"))
  return { struct, variants, field }
}

export const readStructVariantHandle = (c: BinaryCursor): StructVariantHandle => {
  const struct = idx(c, "struct definition index")
  return { struct, variant: c.uleb(VARIANT_OFFSET_MAX, "variant offset") }
}
