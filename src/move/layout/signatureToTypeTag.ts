import type { FunctionParamTag, StructTag, TypeTag } from "../../domain/TypeTag.js"
import type { CommonTables } from "../binary/CompiledModule.js"
import type { SignatureToken } from "../binary/SignatureToken.js"

/** A signature token that has no TypeTag form (a reference outside a function type, a bad index). */
export class SignatureTypeError {
  readonly _tag = "SignatureTypeError"
  constructor(readonly message: string) {}
}

const PRIMITIVES: Record<string, TypeTag> = {
  Bool: { _tag: "bool" },
  U8: { _tag: "u8" },
  U16: { _tag: "u16" },
  U32: { _tag: "u32" },
  U64: { _tag: "u64" },
  U128: { _tag: "u128" },
  U256: { _tag: "u256" },
  I8: { _tag: "i8" },
  I16: { _tag: "i16" },
  I32: { _tag: "i32" },
  I64: { _tag: "i64" },
  I128: { _tag: "i128" },
  I256: { _tag: "i256" },
  Address: { _tag: "address" },
  Signer: { _tag: "signer" }
}

/** The struct tag a module's struct handle names, with the given type arguments. */
export const structHandleTag = (unit: CommonTables, handle: number, typeArgs: ReadonlyArray<TypeTag>): StructTag => {
  const h = unit.structHandles[handle]
  if (h === undefined) throw new SignatureTypeError(`struct handle ${handle} out of range`)
  const m = unit.moduleHandles[h.module]!
  return {
    address: unit.addressIdentifiers[m.address]!,
    module: unit.identifiers[m.name]!,
    name: unit.identifiers[h.name]!,
    typeArgs
  }
}

/**
 * The TypeTag of a signature token of `unit`, with type parameters replaced by `typeArgs`.
 * Signature tokens from the bytecode reader are bounded in depth (nesting cap 256), so recursion
 * here is bounded too. Throws SignatureTypeError (callers catch at their boundary).
 */
export const signatureToTypeTag = (
  unit: CommonTables,
  token: SignatureToken,
  typeArgs: ReadonlyArray<TypeTag>
): TypeTag => {
  switch (token._tag) {
    case "Vector":
      return { _tag: "vector", element: signatureToTypeTag(unit, token.element, typeArgs) }
    case "Struct":
      return { _tag: "struct", struct: structHandleTag(unit, token.handle, []) }
    case "StructInstantiation":
      return {
        _tag: "struct",
        struct: structHandleTag(
          unit,
          token.handle,
          token.typeArgs.map((t) => signatureToTypeTag(unit, t, typeArgs))
        )
      }
    case "TypeParameter": {
      const t = typeArgs[token.index]
      if (t === undefined) throw new SignatureTypeError(`type parameter T${token.index} has no argument`)
      return t
    }
    case "Function": {
      const param = (t: SignatureToken): FunctionParamTag =>
        t._tag === "Reference"
          ? { kind: "reference", tag: signatureToTypeTag(unit, t.to, typeArgs) }
          : t._tag === "MutableReference"
            ? { kind: "mutableReference", tag: signatureToTypeTag(unit, t.to, typeArgs) }
            : { kind: "value", tag: signatureToTypeTag(unit, t, typeArgs) }
      return {
        _tag: "function",
        args: token.args.map(param),
        results: token.results.map(param),
        abilities: token.abilities
      }
    }
    case "Reference":
    case "MutableReference":
      throw new SignatureTypeError("a reference has no type tag")
    default: {
      const p = PRIMITIVES[token._tag]
      if (p === undefined) throw new SignatureTypeError(`unknown signature token ${token._tag}`)
      return p
    }
  }
}
