/**
 * The abilities of a `SignatureToken` as the bytecode verifier sees them (the reference's
 * `BinaryIndexedView::abilities`): primitives have copy, drop and store (a signer only drop),
 * references copy and drop, a type parameter what its constraint says, a function type what it
 * declares, and a vector or an instantiated struct its declared abilities kept only where every
 * non-phantom type argument allows them (`AbilitySet::polymorphic_abilities`).
 *
 * Why the type-argument rule: `Coin<T>` declares `store`, but a `Coin<T>` may only be stored if `T`
 * may be, and a struct has `key` only if its (non-phantom) arguments have `store`.
 */
import { Ability, type CompiledModule, type StructTypeParameter } from "../binary/CompiledModule.js"
import type { SignatureToken } from "../binary/SignatureToken.js"

const COPY_DROP_STORE = Ability.Copy | Ability.Drop | Ability.Store
const COPY_DROP = Ability.Copy | Ability.Drop

/** A vector's one type parameter is not phantom. */
const VECTOR_PARAMETERS: ReadonlyArray<StructTypeParameter> = [{ constraints: 0, isPhantom: false }]

/**
 * What a type argument with abilities `a` lets its container keep: copy needs copy, drop needs drop,
 * store needs store, and key needs store (a key struct's fields are stored, not keyed).
 */
const allowedBy = (a: number): number =>
  (a & Ability.Copy) | (a & Ability.Drop) | (a & Ability.Store ? Ability.Store | Ability.Key : 0)

/** Thrown (and caught by the verifier) when a token names a type parameter the function lacks. */
export class UnknownTypeParameter extends Error {
  constructor(readonly index: number) {
    super(`type parameter ${index} is not declared`)
  }
}

/**
 * The ability set of `token` inside a function whose type parameters have the ability constraints
 * `typeParameters`. Struct handles are those of `m` (their declared abilities and phantom flags).
 */
export const abilitiesOf = (
  m: Pick<CompiledModule, "structHandles">,
  token: SignatureToken,
  typeParameters: ReadonlyArray<number>
): number => {
  switch (token._tag) {
    case "Signer":
      return Ability.Drop
    case "Reference":
    case "MutableReference":
      return COPY_DROP
    case "Vector":
      return polymorphic(m, COPY_DROP_STORE, VECTOR_PARAMETERS, [token.element], typeParameters)
    case "Struct":
      return m.structHandles[token.handle]!.abilities
    case "StructInstantiation": {
      const h = m.structHandles[token.handle]!
      return polymorphic(m, h.abilities, h.typeParameters, token.typeArgs, typeParameters)
    }
    case "TypeParameter": {
      const c = typeParameters[token.index]
      if (c === undefined) throw new UnknownTypeParameter(token.index)
      return c
    }
    case "Function":
      return token.abilities
    default:
      // Bool, the unsigned and signed integers, Address.
      return COPY_DROP_STORE
  }
}

const polymorphic = (
  m: Pick<CompiledModule, "structHandles">,
  declared: number,
  parameters: ReadonlyArray<StructTypeParameter>,
  args: ReadonlyArray<SignatureToken>,
  typeParameters: ReadonlyArray<number>
): number => {
  let out = declared
  for (let i = 0; i < args.length && out !== 0; i++) {
    // A phantom argument never constrains its container: it is not part of the value.
    if (parameters[i]?.isPhantom === true) continue
    out &= allowedBy(abilitiesOf(m, args[i]!, typeParameters))
  }
  return out
}
