import { PRIMITIVE_TYPE_NAMES, type StructTag, type TypeTag } from "../../domain/TypeTag.js"
import { vmError } from "./VmError.js"

/**
 * Runtime types. A type is a small tagged object; `k` is one of the `K` kinds. Struct types point at
 * the loaded definition (`StructType`), so no lookup is needed while running. `g` is true when the
 * type mentions a type parameter: closed types skip substitution entirely.
 */
export const K = {
  Bool: 0,
  U8: 1,
  U16: 2,
  U32: 3,
  U64: 4,
  U128: 5,
  U256: 6,
  I8: 7,
  I16: 8,
  I32: 9,
  I64: 10,
  I128: 11,
  I256: 12,
  Address: 13,
  Signer: 14,
  Vector: 15,
  Struct: 16,
  Ref: 17,
  MutRef: 18,
  TyParam: 19,
  Function: 20
} as const

export type Type =
  | { readonly k: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14; readonly g: false }
  | { readonly k: 15; readonly elem: Type; readonly g: boolean }
  | { readonly k: 16; readonly def: StructType; readonly args: ReadonlyArray<Type>; readonly g: boolean }
  | { readonly k: 17 | 18; readonly to: Type; readonly g: boolean }
  | { readonly k: 19; readonly idx: number; readonly g: true }
  | {
      readonly k: 20
      readonly args: ReadonlyArray<Type>
      readonly results: ReadonlyArray<Type>
      readonly abilities: number
      readonly g: boolean
    }

export type StructKind = Extract<Type, { k: 16 }>

export interface FieldType {
  readonly name: string
  /** May mention the struct's type parameters. */
  readonly type: Type
}

export interface VariantType {
  readonly name: string
  readonly fields: ReadonlyArray<FieldType>
}

/** A loaded struct or enum definition. */
export interface StructType {
  readonly address: Uint8Array
  readonly module: string
  readonly name: string
  readonly abilities: number
  readonly typeParams: ReadonlyArray<{ readonly constraints: number; readonly isPhantom: boolean }>
  /** Undefined for an enum. */
  readonly fields: ReadonlyArray<FieldType> | undefined
  /** Undefined for a plain struct. */
  readonly variants: ReadonlyArray<VariantType> | undefined
  readonly isNative: boolean
  /** `0x1::coin::CoinStore` (short address), computed once. */
  readonly qualifiedName: string
  /** The resource group this struct belongs to (metadata attribute), when it is a group member. */
  groupTag?: StructTag | undefined
}

const prim = <N extends 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14>(k: N) =>
  Object.freeze({ k, g: false as const })

export const Types = {
  bool: prim(0),
  u8: prim(1),
  u16: prim(2),
  u32: prim(3),
  u64: prim(4),
  u128: prim(5),
  u256: prim(6),
  i8: prim(7),
  i16: prim(8),
  i32: prim(9),
  i64: prim(10),
  i128: prim(11),
  i256: prim(12),
  address: prim(13),
  signer: prim(14)
} as const

/** The one primitive table: names (as in type tags and `type_name`) by kind, `K.Bool`…`K.Signer`. */
export const PRIMITIVE_NAMES = PRIMITIVE_TYPE_NAMES

export type PrimitiveName = (typeof PRIMITIVE_NAMES)[number]

const PRIMITIVE_BY_NAME: ReadonlyMap<string, Type> = new Map(PRIMITIVE_NAMES.map((name) => [name, Types[name]]))

/** The runtime type of a primitive type-tag (or signature-token) name, lower case; undefined otherwise. */
export const primitiveNamed = (name: string): Type | undefined => PRIMITIVE_BY_NAME.get(name)

/** Primitive types by kind (`PRIMITIVES[K.U64] === Types.u64`). */
export const PRIMITIVES: ReadonlyArray<Type> = [
  Types.bool,
  Types.u8,
  Types.u16,
  Types.u32,
  Types.u64,
  Types.u128,
  Types.u256,
  Types.i8,
  Types.i16,
  Types.i32,
  Types.i64,
  Types.i128,
  Types.i256,
  Types.address,
  Types.signer
]

/**
 * Hash-consing. Vector, reference, type-parameter and struct types built through these
 * constructors are interned: equal types are one object, so facts that are a pure function of a
 * type (substitutions, struct tags, field layouts) are cached by identity in `WeakMap`s. Identity is
 * only ever a fast path: `typeEquals` stays structural, so a type built elsewhere (or after the
 * tables are reset) just misses the caches. The tables are dropped past `MAX_INTERNED` entries, so
 * requests naming ever new instantiations cannot grow them without bound.
 */
interface Trie<V> {
  value: V | undefined
  next: Map<Type, Trie<V>> | undefined
}
export const MAX_INTERNED = 100_000
let interned = 0
let vectors = new WeakMap<Type, Type>()
let refs = new WeakMap<Type, Type>()
let mutRefs = new WeakMap<Type, Type>()
let structs = new WeakMap<StructType, Trie<Type>>()
let substitutions = new WeakMap<Type, Trie<Type>>()
let listSubstitutions = new WeakMap<ReadonlyArray<Type>, Trie<ReadonlyArray<Type>>>()

const countInterned = (): void => {
  if (++interned <= MAX_INTERNED) return
  interned = 0
  vectors = new WeakMap()
  refs = new WeakMap()
  mutRefs = new WeakMap()
  structs = new WeakMap()
  substitutions = new WeakMap()
  listSubstitutions = new WeakMap()
}

/** The trie node reached by `keys` (created on the way). */
const walk = <V>(root: Trie<V>, keys: ReadonlyArray<Type>): Trie<V> => {
  let node = root
  for (let i = 0; i < keys.length; i++) {
    let next = node.next
    if (next === undefined) node.next = next = new Map()
    let child = next.get(keys[i]!)
    if (child === undefined) {
      child = { value: undefined, next: undefined }
      next.set(keys[i]!, child)
      countInterned()
    }
    node = child
  }
  return node
}

const rootIn = <K extends WeakKey, V>(map: WeakMap<K, Trie<V>>, key: K): Trie<V> => {
  let root = map.get(key)
  if (root === undefined) {
    root = { value: undefined, next: undefined }
    map.set(key, root)
  }
  return root
}

export const vectorOf = (elem: Type): Type => {
  let v = vectors.get(elem)
  if (v === undefined) {
    v = { k: 15, elem, g: elem.g }
    vectors.set(elem, v)
    countInterned()
  }
  return v
}
/** `args` is kept by the type: callers hand over an array they no longer mutate. */
export const structOf = (def: StructType, args: ReadonlyArray<Type>): Type => {
  const node = walk(rootIn(structs, def), args)
  if (node.value === undefined) node.value = { k: 16, def, args, g: args.some((a) => a.g) }
  return node.value
}
export const refOf = (to: Type, mutable: boolean): Type => {
  const table = mutable ? mutRefs : refs
  let r = table.get(to)
  if (r === undefined) {
    r = { k: mutable ? 18 : 17, to, g: to.g }
    table.set(to, r)
    countInterned()
  }
  return r
}
const TY_PARAMS: ReadonlyArray<Type> = Array.from({ length: 64 }, (_, idx) => Object.freeze({ k: 19, idx, g: true }))
export const tyParam = (idx: number): Type => TY_PARAMS[idx] ?? { k: 19, idx, g: true }
export const functionOf = (args: ReadonlyArray<Type>, results: ReadonlyArray<Type>, abilities: number): Type => ({
  k: 20,
  args,
  results,
  abilities,
  g: args.some((a) => a.g) || results.some((a) => a.g)
})

/** Largest type (in nodes) and deepest nesting an instantiation may produce. */
export const MAX_TYPE_NODES = 256
export const MAX_TYPE_DEPTH = 64

/**
 * Substitutes type arguments for type parameters. Closed types are returned as they are; the
 * result is bounded (nodes and depth) so that generic recursion cannot build huge types.
 */
export const substitute = (t: Type, tyArgs: ReadonlyArray<Type>): Type => {
  if (!t.g) return t
  // Memoised by the open type and the (interned) arguments: a substitution is computed and its
  // size checked once, then every later instantiation is a few map lookups and no allocation.
  const node = walk(rootIn(substitutions, t), tyArgs)
  if (node.value !== undefined) return node.value
  const out = subst(t, tyArgs, 0)
  checkTypeSize(out)
  node.value = out
  return out
}

/** `substitute` over a list (a signature), memoised like it: the same array back for the same arguments. */
export const substituteAll = (ts: ReadonlyArray<Type>, tyArgs: ReadonlyArray<Type>): ReadonlyArray<Type> => {
  if (tyArgs.length === 0) return ts
  let open = false
  for (let i = 0; i < ts.length; i++) if (ts[i]!.g) open = true
  if (!open) return ts
  const node = walk(rootIn(listSubstitutions, ts), tyArgs)
  if (node.value === undefined) node.value = ts.map((t) => substitute(t, tyArgs))
  return node.value
}

const subst = (t: Type, tyArgs: ReadonlyArray<Type>, depth: number): Type => {
  if (!t.g) return t
  if (depth > MAX_TYPE_DEPTH) vmError("VM_MAX_TYPE_DEPTH_REACHED", "type nesting too deep")
  switch (t.k) {
    case 15:
      return vectorOf(subst(t.elem, tyArgs, depth + 1))
    case 16:
      return structOf(
        t.def,
        t.args.map((a) => subst(a, tyArgs, depth + 1))
      )
    case 17:
    case 18:
      return refOf(subst(t.to, tyArgs, depth + 1), t.k === 18)
    case 19: {
      const a = tyArgs[t.idx]
      if (a === undefined) return vmError("TYPE_RESOLUTION_FAILURE", `type parameter ${t.idx} not bound`)
      return a
    }
    case 20:
      return functionOf(
        t.args.map((a) => subst(a, tyArgs, depth + 1)),
        t.results.map((a) => subst(a, tyArgs, depth + 1)),
        t.abilities
      )
    default:
      return t
  }
}

/** Counts nodes and depth with an explicit stack; fails past the limits. */
export const checkTypeSize = (t: Type): void => {
  const stack: Array<[Type, number]> = [[t, 1]]
  let nodes = 0
  while (stack.length > 0) {
    const [x, d] = stack.pop()!
    if (++nodes > MAX_TYPE_NODES) vmError("VM_MAX_TYPE_NODES_REACHED", `type larger than ${MAX_TYPE_NODES} nodes`)
    if (d > MAX_TYPE_DEPTH) vmError("VM_MAX_TYPE_DEPTH_REACHED", `type deeper than ${MAX_TYPE_DEPTH}`)
    switch (x.k) {
      case 15:
        stack.push([x.elem, d + 1])
        break
      case 16:
        for (const a of x.args) stack.push([a, d + 1])
        break
      case 17:
      case 18:
        stack.push([x.to, d + 1])
        break
      case 20:
        for (const a of x.args) stack.push([a, d + 1])
        for (const a of x.results) stack.push([a, d + 1])
        break
    }
  }
}

/** The primitive type tags, by kind (`PRIMITIVE_NAMES` order). */
const PRIM_TAGS: ReadonlyArray<TypeTag> = PRIMITIVE_NAMES.map((name) => ({ _tag: name }) as TypeTag)

/** The TypeTag of a closed, non-reference runtime type. */
export const typeToTag = (t: Type): TypeTag => {
  switch (t.k) {
    case 15:
      return { _tag: "vector", element: typeToTag(t.elem) }
    case 16:
      return { _tag: "struct", struct: structTagOf(t) }
    case 17:
    case 18:
      return typeToTag(t.to)
    case 19:
      return vmError("TYPE_RESOLUTION_FAILURE", "open type has no type tag")
    case 20:
      return {
        _tag: "function",
        args: t.args.map((a) => ({
          kind: a.k === 17 ? "reference" : a.k === 18 ? "mutableReference" : "value",
          tag: typeToTag(a)
        })),
        results: t.results.map((a) => ({
          kind: a.k === 17 ? "reference" : a.k === 18 ? "mutableReference" : "value",
          tag: typeToTag(a)
        })),
        abilities: t.abilities
      }
    default:
      return PRIM_TAGS[t.k]!
  }
}

export const structTagOf = (t: StructKind): StructTag => ({
  address: t.def.address,
  module: t.def.module,
  name: t.def.name,
  typeArgs: t.args.map(typeToTag)
})

/**
 * Canonical text of a type, as `type_info::type_name` prints it: full-length addresses are not used
 * there; the reference prints `0x1::string::String` (short form). Also the cache key of a type.
 */
export const typeName = (t: Type): string => {
  switch (t.k) {
    case 15:
      return `vector<${typeName(t.elem)}>`
    case 16: {
      const base = t.def.qualifiedName
      return t.args.length === 0 ? base : `${base}<${t.args.map(typeName).join(", ")}>`
    }
    case 17:
      return `&${typeName(t.to)}`
    case 18:
      return `&mut ${typeName(t.to)}`
    case 19:
      return `T${t.idx}`
    case 20:
      return `|${t.args.map(typeName).join(", ")}|${t.results.map(typeName).join(", ")}`
    default:
      return PRIMITIVE_NAMES[t.k]!
  }
}

export const typeEquals = (a: Type, b: Type): boolean => {
  if (a === b) return true
  if (a.k !== b.k) return false
  switch (a.k) {
    case 15:
      return typeEquals(a.elem, (b as typeof a).elem)
    case 16: {
      const bs = b as typeof a
      // One struct loaded twice (a module dropped from the loader's cache and loaded again while
      // a session held types of the first copy) is one type: the reference names structs.
      if (a.def !== bs.def && a.def.qualifiedName !== bs.def.qualifiedName) return false
      if (a.args.length !== bs.args.length) return false
      for (let i = 0; i < a.args.length; i++) if (!typeEquals(a.args[i]!, bs.args[i]!)) return false
      return true
    }
    case 17:
    case 18:
      return typeEquals(a.to, (b as typeof a).to)
    case 19:
      return a.idx === (b as typeof a).idx
    case 20:
      return typeName(a) === typeName(b)
    default:
      return true
  }
}

/**
 * Ability set of a closed type: primitives copy+drop+store, signer drop, references copy+drop,
 * vectors what their element has (of copy/drop/store), function values their declared set, and a
 * struct instantiation its declared abilities, each kept only if every non-phantom type argument
 * has the ability it requires (copy→copy, drop→drop, store→store, key→store).
 */
export const abilitiesOf = (t: Type): number => {
  switch (t.k) {
    case 14:
      return 0x2
    case 15:
      return abilitiesOf(t.elem) & 0x7
    case 16: {
      let args = 0xf
      t.args.forEach((x, i) => {
        if (!t.def.typeParams[i]?.isPhantom) args &= abilitiesOf(x)
      })
      let out = 0
      const declared = t.def.abilities
      if (declared & 0x1 && args & 0x1) out |= 0x1
      if (declared & 0x2 && args & 0x2) out |= 0x2
      if (declared & 0x4 && args & 0x4) out |= 0x4
      if (declared & 0x8 && args & 0x4) out |= 0x8
      return out
    }
    case 17:
    case 18:
      return 0x3
    case 19:
      return 0
    case 20:
      return t.abilities
    default:
      return 0x7
  }
}
