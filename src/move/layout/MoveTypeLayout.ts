import { addressEquals, addressFromNumber } from "../../domain/AccountAddress.js"
import type { StructTag } from "../../domain/TypeTag.js"

/**
 * The fully resolved shape of a Move type: what a (de)serialiser needs to walk a value's BCS bytes
 * without consulting any module. Primitive layouts are shared frozen objects (see `Layouts`); a
 * struct or enum layout carries its struct tag (with the type arguments it was instantiated with) so
 * that printers can recognise the framework's special structs (`specialStruct`).
 *
 * BCS of each layout:
 * - integers little-endian at their width, signed ones in two's complement; bool one byte 0/1;
 *   address 32 bytes; signer as its address (the VM's serialisation of a signer value);
 * - vector: ULEB128 count then the elements;
 * - struct: the fields in declaration order, no header;
 * - enum: ULEB128 variant index then that variant's fields;
 * - function: a serialised closure (see `FunctionLayout`).
 */
export type MoveTypeLayout =
  | PrimitiveLayout
  | { readonly _tag: "vector"; readonly element: MoveTypeLayout }
  | StructLayout
  | EnumLayout
  | FunctionLayout

export type PrimitiveKind =
  | "bool"
  | "u8"
  | "u16"
  | "u32"
  | "u64"
  | "u128"
  | "u256"
  | "i8"
  | "i16"
  | "i32"
  | "i64"
  | "i128"
  | "i256"
  | "address"
  | "signer"

export interface PrimitiveLayout {
  readonly _tag: PrimitiveKind
}

export interface FieldLayout {
  readonly name: string
  readonly layout: MoveTypeLayout
}

export interface StructLayout {
  readonly _tag: "struct"
  /** The struct's tag, with the concrete type arguments of this instantiation. */
  readonly struct: StructTag
  readonly fields: ReadonlyArray<FieldLayout>
}

export interface VariantLayout {
  readonly name: string
  readonly fields: ReadonlyArray<FieldLayout>
}

export interface EnumLayout {
  readonly _tag: "enum"
  readonly struct: StructTag
  /** In declaration order: the index of a variant is its BCS tag. */
  readonly variants: ReadonlyArray<VariantLayout>
}

/**
 * A function value (closure, bytecode v8+). Its serialised form is self-describing (function name,
 * type arguments, mask and the layouts of the captured values travel with it), so the layout holds
 * only the function type it was declared with, as a printable string, for error messages.
 */
export interface FunctionLayout {
  readonly _tag: "function"
  readonly signature: string
}

const prim = <K extends PrimitiveKind>(k: K): { readonly _tag: K } => Object.freeze({ _tag: k })

/** The primitive layouts, shared so that resolving a primitive allocates nothing. */
export const Layouts = {
  bool: prim("bool"),
  u8: prim("u8"),
  u16: prim("u16"),
  u32: prim("u32"),
  u64: prim("u64"),
  u128: prim("u128"),
  u256: prim("u256"),
  i8: prim("i8"),
  i16: prim("i16"),
  i32: prim("i32"),
  i64: prim("i64"),
  i128: prim("i128"),
  i256: prim("i256"),
  address: prim("address"),
  signer: prim("signer")
} as const satisfies { readonly [K in PrimitiveKind]: PrimitiveLayout }

export const vectorLayout = (element: MoveTypeLayout): MoveTypeLayout => ({
  _tag: "vector",
  element
})

/** Integer kinds with their width and signedness. */
export const INTEGER_KINDS = {
  u8: { bits: 8, signed: false },
  u16: { bits: 16, signed: false },
  u32: { bits: 32, signed: false },
  u64: { bits: 64, signed: false },
  u128: { bits: 128, signed: false },
  u256: { bits: 256, signed: false },
  i8: { bits: 8, signed: true },
  i16: { bits: 16, signed: true },
  i32: { bits: 32, signed: true },
  i64: { bits: 64, signed: true },
  i128: { bits: 128, signed: true },
  i256: { bits: 256, signed: true }
} as const

export type IntegerKind = keyof typeof INTEGER_KINDS

export const isIntegerKind = (tag: string): tag is IntegerKind => Object.hasOwn(INTEGER_KINDS, tag)

/** Integers the API writes as JSON numbers (32 bits and narrower); wider ones are decimal strings. */
export const isSmallInteger = (tag: string): boolean =>
  tag === "u8" || tag === "u16" || tag === "u32" || tag === "i8" || tag === "i16" || tag === "i32"

/**
 * The framework structs the API renders specially.
 * - `String`: `0x1::string::String` (`{bytes: vector<u8>}`) is a JSON string.
 * - `Option`: `0x1::option::Option<T>`, a struct `{vec: vector<T>}` in the old framework and an
 *   enum `None | Some {e}` in the new; both are BCS `vector<T>` of length 0 or 1, so the converters
 *   treat them alike, as `{"vec": [...]}`.
 * - `Object`: `0x1::object::Object<T>` (`{inner: address}`): an address string as input,
 *   `{"inner": "0x…"}` as output.
 * - `FixedPoint32` / `FixedPoint64`: `0x1::fixed_point32::FixedPoint32` and
 *   `0x1::fixed_point64::FixedPoint64` (`{value: u64|u128}`); the API renders them as plain
 *   structs, they are recognised so that callers can tell them apart.
 */
export type SpecialStruct = "String" | "Option" | "Object" | "FixedPoint32" | "FixedPoint64"

const ONE = addressFromNumber(1)

export const specialStruct = (tag: StructTag): SpecialStruct | undefined => {
  if (!addressEquals(tag.address, ONE)) return undefined
  switch (tag.module) {
    case "string":
      return tag.name === "String" && tag.typeArgs.length === 0 ? "String" : undefined
    case "option":
      return tag.name === "Option" && tag.typeArgs.length === 1 ? "Option" : undefined
    case "object":
      return tag.name === "Object" && tag.typeArgs.length === 1 ? "Object" : undefined
    case "fixed_point32":
      return tag.name === "FixedPoint32" ? "FixedPoint32" : undefined
    case "fixed_point64":
      return tag.name === "FixedPoint64" ? "FixedPoint64" : undefined
    default:
      return undefined
  }
}

/**
 * For an Option layout (either framework form), the element layout; undefined for anything else.
 */
export const optionElement = (layout: MoveTypeLayout): MoveTypeLayout | undefined => {
  if (layout._tag !== "struct" && layout._tag !== "enum") return undefined
  if (specialStruct(layout.struct) !== "Option") return undefined
  if (layout._tag === "struct") {
    const f = layout.fields[0]
    return layout.fields.length === 1 && f !== undefined && f.layout._tag === "vector" ? f.layout.element : undefined
  }
  const some = layout.variants[1]
  return layout.variants.length === 2 && some !== undefined && some.fields.length === 1
    ? some.fields[0]!.layout
    : undefined
}
