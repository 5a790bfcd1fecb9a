import type { AccountAddress } from "./AccountAddress.js"

/**
 * The primitive types' names, as in type tags, type strings and `type_name`. The VM numbers its
 * primitive kinds in this order (`move/vm/Type.ts`, `K.Bool`…`K.Signer`), so it is not the BCS order.
 */
export const PRIMITIVE_TYPE_NAMES = [
  "bool",
  "u8",
  "u16",
  "u32",
  "u64",
  "u128",
  "u256",
  "i8",
  "i16",
  "i32",
  "i64",
  "i128",
  "i256",
  "address",
  "signer"
] as const satisfies ReadonlyArray<PrimitiveTypeTag["_tag"]>

/**
 * The on-chain type of a Move value (`TypeTag` in the reference). BCS variant indices follow the
 * reference's declaration order: 0 bool, 1 u8, 2 u64, 3 u128, 4 address, 5 signer, 6 vector,
 * 7 struct, 8 u16, 9 u32, 10 u256, 11 function, 12..17 i8..i256.
 */
export type PrimitiveTypeTag =
  | { readonly _tag: "bool" }
  | { readonly _tag: "u8" }
  | { readonly _tag: "u16" }
  | { readonly _tag: "u32" }
  | { readonly _tag: "u64" }
  | { readonly _tag: "u128" }
  | { readonly _tag: "u256" }
  | { readonly _tag: "i8" }
  | { readonly _tag: "i16" }
  | { readonly _tag: "i32" }
  | { readonly _tag: "i64" }
  | { readonly _tag: "i128" }
  | { readonly _tag: "i256" }
  | { readonly _tag: "address" }
  | { readonly _tag: "signer" }

export type TypeTag =
  | PrimitiveTypeTag
  | { readonly _tag: "vector"; readonly element: TypeTag }
  | { readonly _tag: "struct"; readonly struct: StructTag }
  | {
      readonly _tag: "function"
      readonly args: ReadonlyArray<FunctionParamTag>
      readonly results: ReadonlyArray<FunctionParamTag>
      /** AbilitySet bits: 1 copy, 2 drop, 4 store, 8 key. */
      readonly abilities: number
    }

/**
 * A function type's parameter or result (`FunctionParamOrReturnTag`, BCS enum 0 Reference,
 * 1 MutableReference, 2 Value): only these outermost positions may be references.
 */
export interface FunctionParamTag {
  readonly kind: "reference" | "mutableReference" | "value"
  readonly tag: TypeTag
}

export interface StructTag {
  readonly address: AccountAddress
  readonly module: string
  readonly name: string
  readonly typeArgs: ReadonlyArray<TypeTag>
}

export interface ModuleId {
  readonly address: AccountAddress
  readonly name: string
}
