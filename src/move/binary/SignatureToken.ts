/**
 * A type as it appears in a compiled module or script (`SignatureToken` in the reference). Struct
 * types point into the unit's struct-handle table, type parameters are positional. Tagged by `_tag`,
 * as the domain `TypeTag` is; primitive tokens are shared frozen objects (see `primitiveTokens`).
 */
export type SignatureToken =
  | PrimitiveToken
  | { readonly _tag: "Reference"; readonly to: SignatureToken }
  | { readonly _tag: "MutableReference"; readonly to: SignatureToken }
  | { readonly _tag: "Vector"; readonly element: SignatureToken }
  | { readonly _tag: "Struct"; readonly handle: number }
  | {
      readonly _tag: "StructInstantiation"
      readonly handle: number
      /** At least one argument (arity 0 is malformed). */
      readonly typeArgs: ReadonlyArray<SignatureToken>
    }
  | { readonly _tag: "TypeParameter"; readonly index: number }
  | {
      /** A function value type (v8+): `|args| results has abilities`. */
      readonly _tag: "Function"
      readonly args: ReadonlyArray<SignatureToken>
      readonly results: ReadonlyArray<SignatureToken>
      /** Ability bit set (see `Ability`). */
      readonly abilities: number
    }

export type PrimitiveTag =
  | "Bool"
  | "U8"
  | "U16"
  | "U32"
  | "U64"
  | "U128"
  | "U256"
  | "I8"
  | "I16"
  | "I32"
  | "I64"
  | "I128"
  | "I256"
  | "Address"
  | "Signer"

export interface PrimitiveToken {
  readonly _tag: PrimitiveTag
}

/** The serialized type byte of each token kind (§1.4). */
export const SerializedType = {
  Bool: 0x01,
  U8: 0x02,
  U64: 0x03,
  U128: 0x04,
  Address: 0x05,
  Reference: 0x06,
  MutableReference: 0x07,
  Struct: 0x08,
  TypeParameter: 0x09,
  Vector: 0x0a,
  StructInstantiation: 0x0b,
  Signer: 0x0c,
  U16: 0x0d,
  U32: 0x0e,
  U256: 0x0f,
  Function: 0x10,
  I8: 0x11,
  I16: 0x12,
  I32: 0x13,
  I64: 0x14,
  I128: 0x15,
  I256: 0x16
} as const

const primitive = (tag: PrimitiveTag): PrimitiveToken => Object.freeze({ _tag: tag })

/** Shared instances, so decoding a primitive allocates nothing. */
export const primitiveTokens: { readonly [K in PrimitiveTag]: PrimitiveToken } = {
  Bool: primitive("Bool"),
  U8: primitive("U8"),
  U16: primitive("U16"),
  U32: primitive("U32"),
  U64: primitive("U64"),
  U128: primitive("U128"),
  U256: primitive("U256"),
  I8: primitive("I8"),
  I16: primitive("I16"),
  I32: primitive("I32"),
  I64: primitive("I64"),
  I128: primitive("I128"),
  I256: primitive("I256"),
  Address: primitive("Address"),
  Signer: primitive("Signer")
}

const NO_TOKENS: ReadonlyArray<SignatureToken> = []

/**
 * The tokens directly inside `t`: a vector's element, a reference's referent, a struct
 * instantiation's type arguments, a function type's parameters then results; none for the rest.
 * For passes that walk a token with their own stack (a token may be 256 deep).
 */
export const innerTokens = (t: SignatureToken): ReadonlyArray<SignatureToken> => {
  switch (t._tag) {
    case "Vector":
      return [t.element]
    case "Reference":
    case "MutableReference":
      return [t.to]
    case "StructInstantiation":
      return t.typeArgs
    case "Function":
      return [...t.args, ...t.results]
    default:
      return NO_TOKENS
  }
}
