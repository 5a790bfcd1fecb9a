/**
 * The in-memory model of a compiled Move module or script: every table of the binary format as an
 * array of plain objects, indices as plain numbers pointing into sibling tables. The reader
 * (`deserialize.ts`) guarantees every index is in range; the writer (`serialize.ts`) turns the model
 * back into the exact bytes it came from. No behaviour lives here, only shapes.
 *
 * Index fields are named after the table they point into:
 *   module → moduleHandles, name → identifiers, address → addressIdentifiers,
 *   handle (of a function) → functionHandles, structHandle → structHandles,
 *   def / owner / struct → structDefs, signature-ish fields (parameters, returns, locals,
 *   typeParameters of instantiations) → signatures.
 */
import type { Instruction } from "./Instruction.js"
import type { SignatureToken } from "./SignatureToken.js"

export type { Instruction } from "./Instruction.js"
export { Opcode } from "./Opcode.js"
export type { SignatureToken } from "./SignatureToken.js"

/** Ability bits of an ability set (a `number` holding a subset of 0xF). */
export const Ability = { Copy: 0x1, Drop: 0x2, Store: 0x4, Key: 0x8 } as const
export const ABILITY_ALL = 0xf

/** Function visibility byte: 0 private, 1 public, 3 friend (2 was the v1–v4 "script"). */
export const Visibility = { Private: 0, Public: 1, Friend: 3 } as const
export type Visibility = (typeof Visibility)[keyof typeof Visibility]

/** Versions accepted by the reader (5 = VERSION_MIN, 10 = VERSION_MAX). */
export const VERSION_MIN = 5
export const VERSION_MAX = 10

export interface ModuleHandle {
  /** Index into addressIdentifiers. */
  readonly address: number
  /** Index into identifiers. */
  readonly name: number
}

export interface StructTypeParameter {
  /** Ability set the type argument must have. */
  readonly constraints: number
  readonly isPhantom: boolean
}

export interface StructHandle {
  readonly module: number
  readonly name: number
  /** Ability set of the struct. */
  readonly abilities: number
  readonly typeParameters: ReadonlyArray<StructTypeParameter>
}

/** v8+ attributes on a function handle. Kinds 3..9 are the compiler's "struct API" markers. */
export type FunctionAttribute =
  | { readonly _tag: "Persistent" }
  | { readonly _tag: "ModuleLock" }
  | { readonly _tag: "Pack" }
  | { readonly _tag: "Unpack" }
  | { readonly _tag: "PackVariant"; readonly index: number }
  | { readonly _tag: "UnpackVariant"; readonly index: number }
  | { readonly _tag: "TestVariant"; readonly index: number }
  | { readonly _tag: "BorrowFieldImmutable"; readonly index: number }
  | { readonly _tag: "BorrowFieldMutable"; readonly index: number }

export type ResourceSpecifier =
  | { readonly _tag: "Any" }
  | { readonly _tag: "DeclaredAtAddress"; readonly address: number }
  | { readonly _tag: "DeclaredInModule"; readonly module: number }
  | { readonly _tag: "Resource"; readonly structHandle: number }
  | { readonly _tag: "ResourceInstantiation"; readonly structHandle: number; readonly typeArgs: number }

export type AddressSpecifier =
  | { readonly _tag: "Any" }
  | { readonly _tag: "Literal"; readonly address: number }
  /** The address held by a parameter, optionally mapped through a function instantiation. */
  | { readonly _tag: "Parameter"; readonly local: number; readonly functionInstantiation: number | undefined }

/** v7+ access specifier (`reads`/`writes` clauses) on a function handle or script. */
export interface AccessSpecifier {
  readonly kind: "Reads" | "Writes"
  readonly negated: boolean
  readonly resource: ResourceSpecifier
  readonly address: AddressSpecifier
}

export interface FunctionHandle {
  readonly module: number
  readonly name: number
  /** Signature index of the parameter list. */
  readonly parameters: number
  /** Signature index of the return list. */
  readonly returns: number
  /** Ability constraints, one per type parameter. */
  readonly typeParameters: ReadonlyArray<number>
  /** v7+: undefined when absent (every framework function); otherwise the declared list. */
  readonly accessSpecifiers: ReadonlyArray<AccessSpecifier> | undefined
  /** v8+ attribute list (empty before v8). */
  readonly attributes: ReadonlyArray<FunctionAttribute>
}

/** A generic function/struct/field/variant applied to type arguments: `handle` + signature index. */
export interface Instantiation {
  readonly handle: number
  /** Signature index of the type arguments. */
  readonly typeParameters: number
}

export interface Constant {
  readonly type: SignatureToken
  /** BCS of the value. */
  readonly data: Uint8Array
}

export interface Metadata {
  readonly key: Uint8Array
  readonly value: Uint8Array
}

export interface FieldDefinition {
  readonly name: number
  readonly type: SignatureToken
}

export interface VariantDefinition {
  readonly name: number
  readonly fields: ReadonlyArray<FieldDefinition>
}

export type StructFieldInformation =
  | { readonly _tag: "Native" }
  | { readonly _tag: "Declared"; readonly fields: ReadonlyArray<FieldDefinition> }
  | { readonly _tag: "DeclaredVariants"; readonly variants: ReadonlyArray<VariantDefinition> }

export interface StructDefinition {
  readonly structHandle: number
  readonly fieldInformation: StructFieldInformation
}

export interface StructDefInstantiation {
  /** Index into structDefs. */
  readonly def: number
  readonly typeParameters: number
}

export interface CodeUnit {
  /** Signature index of the locals that follow the parameters. */
  readonly locals: number
  readonly code: ReadonlyArray<Instruction>
}

export interface FunctionDefinition {
  /** Index into functionHandles. */
  readonly function: number
  readonly visibility: Visibility
  readonly isEntry: boolean
  /** Struct definitions this function acquires (legacy `acquires` list). */
  readonly acquiresGlobalResources: ReadonlyArray<number>
  /** undefined for a native function. */
  readonly code: CodeUnit | undefined
}

export interface FieldHandle {
  /** Struct definition owning the field. */
  readonly owner: number
  /** Field position. */
  readonly field: number
}

export interface VariantFieldHandle {
  readonly struct: number
  /** Variants (by position) that all have this field at `field`. */
  readonly variants: ReadonlyArray<number>
  readonly field: number
}

export interface StructVariantHandle {
  readonly struct: number
  readonly variant: number
}

/** Tables shared by modules and scripts. */
export interface CommonTables {
  /** Real bytecode version (5..10), the Aptos mask already stripped. */
  readonly version: number
  readonly moduleHandles: ReadonlyArray<ModuleHandle>
  readonly structHandles: ReadonlyArray<StructHandle>
  readonly functionHandles: ReadonlyArray<FunctionHandle>
  readonly functionInstantiations: ReadonlyArray<Instantiation>
  readonly signatures: ReadonlyArray<ReadonlyArray<SignatureToken>>
  readonly identifiers: ReadonlyArray<string>
  readonly addressIdentifiers: ReadonlyArray<Uint8Array>
  readonly constantPool: ReadonlyArray<Constant>
  readonly metadata: ReadonlyArray<Metadata>
}

export interface CompiledModule extends CommonTables {
  /** The module handle naming this module itself. */
  readonly selfModuleHandleIndex: number
  readonly structDefs: ReadonlyArray<StructDefinition>
  readonly structDefInstantiations: ReadonlyArray<StructDefInstantiation>
  readonly functionDefs: ReadonlyArray<FunctionDefinition>
  readonly fieldHandles: ReadonlyArray<FieldHandle>
  /** handle → fieldHandles. */
  readonly fieldInstantiations: ReadonlyArray<Instantiation>
  readonly friendDecls: ReadonlyArray<ModuleHandle>
  readonly variantFieldHandles: ReadonlyArray<VariantFieldHandle>
  /** handle → variantFieldHandles. */
  readonly variantFieldInstantiations: ReadonlyArray<Instantiation>
  readonly structVariantHandles: ReadonlyArray<StructVariantHandle>
  /** handle → structVariantHandles. */
  readonly structVariantInstantiations: ReadonlyArray<Instantiation>
}

export interface CompiledScript extends CommonTables {
  /** Ability constraints of the script function's type parameters. */
  readonly typeParameters: ReadonlyArray<number>
  /** Signature index of the script function's parameters. */
  readonly parameters: number
  /** v8+ (undefined when absent). */
  readonly accessSpecifiers: ReadonlyArray<AccessSpecifier> | undefined
  readonly code: CodeUnit
}
