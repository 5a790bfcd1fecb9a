/**
 * Operations on `SignatureToken`s the type-safety pass needs: structural equality (the reference
 * compares tokens with `==`, struct handles by index), substitution of type parameters by an
 * instantiation's type arguments, assignability (equality, except that a function value may be used
 * where a function type with fewer abilities is expected), and the small predicates on kinds.
 */
import type { SignatureToken } from "../binary/SignatureToken.js"

/** Thrown (and caught by the verifier) when an instantiation has fewer type arguments than used. */
export class MissingTypeArgument extends Error {
  constructor(readonly index: number) {
    super(`no type argument for type parameter ${index}`)
  }
}

const sameList = (a: ReadonlyArray<SignatureToken>, b: ReadonlyArray<SignatureToken>): boolean => {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (!sameToken(a[i]!, b[i]!)) return false
  return true
}

/** Structural equality; primitive tokens compare by tag (they need not be the shared instances). */
export const sameToken = (a: SignatureToken, b: SignatureToken): boolean => {
  if (a === b) return true
  if (a._tag !== b._tag) return false
  switch (a._tag) {
    case "Reference":
    case "MutableReference":
      return sameToken(a.to, (b as typeof a).to)
    case "Vector":
      return sameToken(a.element, (b as typeof a).element)
    case "Struct":
      return a.handle === (b as typeof a).handle
    case "StructInstantiation": {
      const o = b as typeof a
      return a.handle === o.handle && sameList(a.typeArgs, o.typeArgs)
    }
    case "TypeParameter":
      return a.index === (b as typeof a).index
    case "Function": {
      const o = b as typeof a
      return a.abilities === o.abilities && sameList(a.args, o.args) && sameList(a.results, o.results)
    }
    default:
      return true
  }
}

/**
 * May a value of type `from` be stored where `to` is expected (a parameter, a local, a return, a
 * field, a vector element, behind a `&mut`)? Only equal types, except that a function value whose
 * abilities include the expected ones fits a function type with the same arguments and results
 * (the reference's `is_assignable_from`), also behind an immutable reference (reading a function
 * through `&` cannot give it abilities it lacks; behind `&mut` it could, by writing, so there the
 * types must be equal). A `&mut T` never fits a `&T`: that takes an explicit FreezeRef, which the
 * reference-safety pass relies on seeing.
 */
export const assignable = (to: SignatureToken, from: SignatureToken): boolean => {
  if (to._tag === "Function" && from._tag === "Function")
    return (
      (to.abilities & from.abilities) === to.abilities &&
      sameList(to.args, from.args) &&
      sameList(to.results, from.results)
    )
  if (to._tag === "Reference" && from._tag === "Reference") return assignable(to.to, from.to)
  return sameToken(to, from)
}

/** `token` with every `TypeParameter(i)` replaced by `args[i]` (`token` itself when `args` is empty). */
export const instantiate = (token: SignatureToken, args: ReadonlyArray<SignatureToken>): SignatureToken => {
  if (args.length === 0) return token
  switch (token._tag) {
    case "TypeParameter": {
      const t = args[token.index]
      if (t === undefined) throw new MissingTypeArgument(token.index)
      return t
    }
    case "Reference":
    case "MutableReference":
      return { _tag: token._tag, to: instantiate(token.to, args) }
    case "Vector":
      return { _tag: "Vector", element: instantiate(token.element, args) }
    case "StructInstantiation":
      return {
        _tag: "StructInstantiation",
        handle: token.handle,
        typeArgs: token.typeArgs.map((t) => instantiate(t, args))
      }
    case "Function":
      return {
        _tag: "Function",
        args: token.args.map((t) => instantiate(t, args)),
        results: token.results.map((t) => instantiate(t, args)),
        abilities: token.abilities
      }
    default:
      return token
  }
}

const INTEGER_TAGS: ReadonlySet<string> = new Set([
  "U8",
  "U16",
  "U32",
  "U64",
  "U128",
  "U256",
  "I8",
  "I16",
  "I32",
  "I64",
  "I128",
  "I256"
])
const SIGNED_TAGS: ReadonlySet<string> = new Set(["I8", "I16", "I32", "I64", "I128", "I256"])

/** Unsigned or signed integer (the reference's `is_integer`, signed types included since v9). */
export const isInteger = (t: SignatureToken): boolean => INTEGER_TAGS.has(t._tag)
export const isSignedInteger = (t: SignatureToken): boolean => SIGNED_TAGS.has(t._tag)
export const isReference = (t: SignatureToken): boolean => t._tag === "Reference" || t._tag === "MutableReference"

/**
 * Does `t` hold a reference anywhere but inside a function type's arguments or results? Type
 * arguments and vector elements may not (the reference's signature checker): `vector<&T>` or
 * `f<&mut T>` would let a reference escape the borrow checker's view.
 */
export const containsReference = (t: SignatureToken): boolean => {
  switch (t._tag) {
    case "Reference":
    case "MutableReference":
      return true
    case "Vector":
      return containsReference(t.element)
    case "StructInstantiation":
      return t.typeArgs.some(containsReference)
    default:
      return false
  }
}

/** Does every `TypeParameter` in `t` name one of `count` type parameters? */
export const typeParametersWithin = (t: SignatureToken, count: number): boolean => {
  switch (t._tag) {
    case "TypeParameter":
      return t.index < count
    case "Reference":
    case "MutableReference":
      return typeParametersWithin(t.to, count)
    case "Vector":
      return typeParametersWithin(t.element, count)
    case "StructInstantiation":
      return t.typeArgs.every((a) => typeParametersWithin(a, count))
    case "Function":
      return (
        t.args.every((a) => typeParametersWithin(a, count)) && t.results.every((a) => typeParametersWithin(a, count))
      )
    default:
      return true
  }
}

/**
 * May a constant have type `t` (the reference's `constants` check)? Primitives but signer, and
 * vectors of them: a constant of a struct, signer or reference type would let LdConst conjure a
 * value nobody packed.
 */
export const isConstantType = (t: SignatureToken): boolean => {
  switch (t._tag) {
    case "Vector":
      return isConstantType(t.element)
    case "Signer":
    case "Reference":
    case "MutableReference":
    case "Struct":
    case "StructInstantiation":
    case "TypeParameter":
    case "Function":
      return false
    default:
      return true
  }
}
