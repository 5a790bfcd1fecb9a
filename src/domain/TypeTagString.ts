/**
 * Text forms of TypeTag and StructTag: `parseTypeTag` / `parseStructTag` (the MoveType grammar
 * without references or generic parameters) and the canonical printers the reference uses
 * (`to_canonical_string`: short addresses, `", "` between type arguments). `structTagEquals`
 * compares parsed forms, so whitespace and address spelling do not matter.
 */
import * as Result from "effect/Result"
import { addressEquals, addressToShortString } from "./AccountAddress.js"
import { type MoveType, MoveTypeParseError, parseMoveType } from "./MoveType.js"
import type { FunctionParamTag, StructTag, TypeTag } from "./TypeTag.js"
import { boundedPrefix } from "./boundedText.js"

/** Converts a parsed MoveType without references or generics into a TypeTag. */
export const moveTypeToTypeTag = (t: MoveType): TypeTag | undefined => {
  switch (t._tag) {
    case "vector": {
      const element = moveTypeToTypeTag(t.element)
      return element === undefined ? undefined : { _tag: "vector", element }
    }
    case "struct": {
      const typeArgs: TypeTag[] = []
      for (const a of t.struct.typeArgs) {
        const x = moveTypeToTypeTag(a)
        if (x === undefined) return undefined
        typeArgs.push(x)
      }
      return { _tag: "struct", struct: { ...t.struct, typeArgs } }
    }
    case "generic":
    case "reference":
      return undefined
    default:
      return t
  }
}

export const typeTagToMoveType = (t: TypeTag): MoveType | undefined => {
  switch (t._tag) {
    case "vector": {
      const element = typeTagToMoveType(t.element)
      return element === undefined ? undefined : { _tag: "vector", element }
    }
    case "struct": {
      const typeArgs: MoveType[] = []
      for (const a of t.struct.typeArgs) {
        const x = typeTagToMoveType(a)
        if (x === undefined) return undefined
        typeArgs.push(x)
      }
      return { _tag: "struct", struct: { ...t.struct, typeArgs } }
    }
    case "function":
      return undefined
    default:
      return t
  }
}

/** Parses a type tag (e.g. a type argument); `maxDepth` defaults to the reference's 8. */
export const parseTypeTag = (input: string, maxDepth?: number): Result.Result<TypeTag, MoveTypeParseError> =>
  Result.flatMap(parseMoveType(input, maxDepth === undefined ? {} : { maxDepth }), (t) => {
    const tag = moveTypeToTypeTag(t)
    return tag === undefined
      ? Result.fail(new MoveTypeParseError(`Invalid type tag '${boundedPrefix(input)}'`))
      : Result.succeed(tag)
  })

export const parseStructTag = (input: string, maxDepth?: number): Result.Result<StructTag, MoveTypeParseError> =>
  Result.flatMap(parseTypeTag(input, maxDepth), (t) =>
    t._tag === "struct"
      ? Result.succeed(t.struct)
      : Result.fail(new MoveTypeParseError(`'${boundedPrefix(input)}' is not a struct tag`))
  )

const ABILITY_NAMES = ["copy", "drop", "store", "key"] as const

const abilitiesPostfix = (bits: number): string => {
  const names = ABILITY_NAMES.filter((_, i) => (bits & (1 << i)) !== 0)
  return names.length === 0 ? "" : ` has ${names.join(" + ")}`
}

const paramToString = (p: FunctionParamTag): string =>
  (p.kind === "reference" ? "&" : p.kind === "mutableReference" ? "&mut " : "") + typeTagToString(p.tag)

/** The reference's `TypeTag::to_canonical_string`. */
export const typeTagToString = (t: TypeTag): string => {
  switch (t._tag) {
    case "vector":
      return `vector<${typeTagToString(t.element)}>`
    case "struct":
      return structTagToString(t.struct)
    case "function":
      return `|${t.args.map(paramToString).join(", ")}|(${t.results.map(paramToString).join(", ")})${abilitiesPostfix(t.abilities)}`
    default:
      return t._tag
  }
}

export const structTagToString = (s: StructTag): string => {
  const base = `${addressToShortString(s.address)}::${s.module}::${s.name}`
  return s.typeArgs.length === 0 ? base : `${base}<${s.typeArgs.map(typeTagToString).join(", ")}>`
}

const typeTagEq = (a: TypeTag, b: TypeTag): boolean => {
  if (a._tag !== b._tag) return false
  switch (a._tag) {
    case "vector":
      return typeTagEq(a.element, (b as typeof a).element)
    case "struct":
      return structEq(a.struct, (b as typeof a).struct)
    case "function": {
      const o = b as typeof a
      const listEq = (x: ReadonlyArray<FunctionParamTag>, y: ReadonlyArray<FunctionParamTag>) =>
        x.length === y.length && x.every((p, i) => p.kind === y[i]!.kind && typeTagEq(p.tag, y[i]!.tag))
      return a.abilities === o.abilities && listEq(a.args, o.args) && listEq(a.results, o.results)
    }
    default:
      return true
  }
}

const structEq = (a: StructTag, b: StructTag): boolean =>
  addressEquals(a.address, b.address) &&
  a.module === b.module &&
  a.name === b.name &&
  a.typeArgs.length === b.typeArgs.length &&
  a.typeArgs.every((t, i) => typeTagEq(t, b.typeArgs[i]!))

export const typeTagEquals = typeTagEq

/**
 * Struct tags compared by their parsed forms (strings are parsed without a depth limit beyond the
 * parser's default). An unparsable string equals nothing.
 */
export const structTagEquals = (a: string | StructTag, b: string | StructTag): boolean => {
  const pa = typeof a === "string" ? parseStructTag(a, 64) : Result.succeed(a)
  const pb = typeof b === "string" ? parseStructTag(b, 64) : Result.succeed(b)
  return Result.isSuccess(pa) && Result.isSuccess(pb) && structEq(pa.success, pb.success)
}
