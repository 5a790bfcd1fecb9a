/**
 * The reference's ordering of type tags (`Ord` derived on `StructTag`, `TypeTag`, `FunctionTag`):
 * a struct tag compares its address (bytes), module, name (identifiers: byte order), then its type
 * arguments (lexicographically, a shorter prefix first); a type tag compares its variant's
 * declaration index first, then its contents.
 *
 * This is not the order of the BCS bytes: BCS prefixes identifiers with their length, so a group
 * stored canonically (a `BTreeMap` serialized with keys sorted by their bytes) lists
 * `0x1::object::ObjectCore` before `0x1::fungible_asset::Metadata`, while the reference's API, which
 * deserializes the group into a `BTreeMap<StructTag, _>`, lists members in this order.
 */
import { addressCompare } from "./AccountAddress.js"
import type { FunctionParamTag, StructTag, TypeTag } from "./TypeTag.js"
import { INDEX_BY_TAG } from "./TypeTagCodec.js"

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

const compareLists = <A>(a: ReadonlyArray<A>, b: ReadonlyArray<A>, compare: (x: A, y: A) => number): number => {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const c = compare(a[i]!, b[i]!)
    if (c !== 0) return c
  }
  return a.length - b.length
}

const PARAM_KIND_INDEX: Readonly<Record<FunctionParamTag["kind"], number>> = {
  reference: 0,
  mutableReference: 1,
  value: 2
}

const compareFunctionParams = (a: FunctionParamTag, b: FunctionParamTag): number =>
  PARAM_KIND_INDEX[a.kind] - PARAM_KIND_INDEX[b.kind] || compareTypeTags(a.tag, b.tag)

export const compareTypeTags = (a: TypeTag, b: TypeTag): number => {
  const byVariant = INDEX_BY_TAG[a._tag] - INDEX_BY_TAG[b._tag]
  if (byVariant !== 0) return byVariant
  if (a._tag === "vector" && b._tag === "vector") return compareTypeTags(a.element, b.element)
  if (a._tag === "struct" && b._tag === "struct") return compareStructTags(a.struct, b.struct)
  if (a._tag === "function" && b._tag === "function")
    return (
      compareLists(a.args, b.args, compareFunctionParams) ||
      compareLists(a.results, b.results, compareFunctionParams) ||
      a.abilities - b.abilities
    )
  return 0
}

export const compareStructTags = (a: StructTag, b: StructTag): number =>
  addressCompare(a.address, b.address) ||
  compareText(a.module, b.module) ||
  compareText(a.name, b.name) ||
  compareLists(a.typeArgs, b.typeArgs, compareTypeTags)
