/**
 * Builds the `MoveTypeLayout` of a TypeTag from modules (the reference's type-to-layout
 * conversion). Struct fields are read from the defining module's struct definition and their types
 * instantiated with the struct tag's type arguments.
 *
 * Bounded: at most `maxDepth` nested vector/struct/enum levels and `maxNodes` layout nodes in total
 * (a generic struct instantiated with itself grows exponentially, and on-chain modules are not
 * trusted to be small). Never throws; errors are a `LayoutError`.
 */
import * as Result from "effect/Result"
import { addressEquals, addressToShortString } from "../../domain/AccountAddress.js"
import type { StructTag, TypeTag } from "../../domain/TypeTag.js"
import { typeTagToString } from "../../domain/TypeTagString.js"
import type { CompiledModule, FieldDefinition } from "../binary/CompiledModule.js"
import { LayoutError } from "./LayoutError.js"
import type { ModuleSource } from "./ModuleSource.js"
import { type FieldLayout, Layouts, type MoveTypeLayout } from "./MoveTypeLayout.js"
import { SignatureTypeError, signatureToTypeTag } from "./signatureToTypeTag.js"

export interface LayoutLimits {
  /** Deepest nesting of vectors, structs and enums (the VM's `max_value_nest_depth` is 128). */
  readonly maxDepth: number
  /** Most layout nodes in one layout (the reference bounds type-to-layout work the same way). */
  readonly maxNodes: number
}

export const defaultLayoutLimits: LayoutLimits = { maxDepth: 128, maxNodes: 2048 }

/** Thrown inside the walk, turned into a Result at the boundary. */
class Stop {
  constructor(readonly error: LayoutError) {}
}

const stop = (reason: LayoutError["reason"], message: string): never => {
  throw new Stop(new LayoutError(reason, message))
}

export const structTagString = (s: StructTag): string => `${addressToShortString(s.address)}::${s.module}::${s.name}`

/** The struct definition named `name` in `module`, if it declares one. */
export const findStructDef = (module: CompiledModule, name: string) => {
  for (const def of module.structDefs) {
    const h = module.structHandles[def.structHandle]!
    if (h.module === module.selfModuleHandleIndex && module.identifiers[h.name] === name) return { def, handle: h }
  }
  return undefined
}

interface Walk {
  readonly source: ModuleSource
  readonly limits: LayoutLimits
  nodes: number
}

const count = (w: Walk): void => {
  if (++w.nodes > w.limits.maxNodes) stop("TooLarge", `type layout has more than ${w.limits.maxNodes} nodes`)
}

const layoutOf = (w: Walk, tag: TypeTag, depth: number): MoveTypeLayout => {
  count(w)
  switch (tag._tag) {
    case "vector":
      if (depth >= w.limits.maxDepth) stop("TooDeep", `type layout nested deeper than ${w.limits.maxDepth}`)
      return { _tag: "vector", element: layoutOf(w, tag.element, depth + 1) }
    case "struct":
      if (depth >= w.limits.maxDepth) stop("TooDeep", `type layout nested deeper than ${w.limits.maxDepth}`)
      return structLayout(w, tag.struct, depth + 1)
    case "function":
      return { _tag: "function", signature: "function" }
    default:
      return Layouts[tag._tag]
  }
}

const fieldsOf = (
  w: Walk,
  module: CompiledModule,
  fields: ReadonlyArray<FieldDefinition>,
  typeArgs: ReadonlyArray<TypeTag>,
  depth: number
): FieldLayout[] =>
  fields.map((f) => ({
    name: module.identifiers[f.name]!,
    layout: layoutOf(w, signatureToTypeTag(module, f.type, typeArgs), depth)
  }))

const structLayout = (w: Walk, tag: StructTag, depth: number): MoveTypeLayout => {
  const module = w.source(tag.address, tag.module)
  if (module === undefined)
    return stop("ModuleNotFound", `Module ${addressToShortString(tag.address)}::${tag.module} can't be found`)
  const self = module.moduleHandles[module.selfModuleHandleIndex]!
  if (
    !addressEquals(module.addressIdentifiers[self.address]!, tag.address) ||
    module.identifiers[self.name] !== tag.module
  )
    return stop(
      "Invalid",
      `module source answered another module for ${addressToShortString(tag.address)}::${tag.module}`
    )
  const found = findStructDef(module, tag.name)
  if (found === undefined) return stop("StructNotFound", `Struct ${structTagString(tag)} not found`)
  if (found.handle.typeParameters.length !== tag.typeArgs.length)
    return stop(
      "Invalid",
      `struct ${structTagString(tag)} takes ${found.handle.typeParameters.length} type arguments, got ${tag.typeArgs.length}`
    )
  const info = found.def.fieldInformation
  switch (info._tag) {
    case "Native":
      return stop("Invalid", `native struct ${structTagString(tag)} has no layout`)
    case "Declared":
      return { _tag: "struct", struct: tag, fields: fieldsOf(w, module, info.fields, tag.typeArgs, depth) }
    case "DeclaredVariants":
      return {
        _tag: "enum",
        struct: tag,
        variants: info.variants.map((v) => ({
          name: module.identifiers[v.name]!,
          fields: fieldsOf(w, module, v.fields, tag.typeArgs, depth)
        }))
      }
  }
}

/** Layouts a source's memo keeps at most (cleared when full: types in use are few). */
const MAX_REMEMBERED_LAYOUTS = 4096

/**
 * The layout of `tag`, reading struct definitions through `source`; a source with a memo of
 * layouts (`ModuleSource.layouts`) answers a struct or vector type it resolved before from it (the
 * same layout object: layouts are never changed once built).
 */
export const resolveLayout = (
  source: ModuleSource,
  tag: TypeTag,
  limits: LayoutLimits = defaultLayoutLimits
): Result.Result<MoveTypeLayout, LayoutError> => {
  // The source's memo of resolved layouts (`ModuleSource.layouts`), under the default limits only.
  const memo = limits === defaultLayoutLimits ? source.layouts?.() : undefined
  const key = memo === undefined || (tag._tag !== "struct" && tag._tag !== "vector") ? undefined : typeTagToString(tag)
  if (key !== undefined) {
    const hit = memo!.get(key)
    if (hit !== undefined) return Result.succeed(hit)
  }
  try {
    const layout = layoutOf({ source, limits, nodes: 0 }, tag, 0)
    if (key !== undefined) {
      if (memo!.size >= MAX_REMEMBERED_LAYOUTS) memo!.clear()
      memo!.set(key, layout)
    }
    return Result.succeed(layout)
  } catch (e) {
    if (e instanceof Stop) return Result.fail(e.error)
    if (e instanceof SignatureTypeError) return Result.fail(new LayoutError("Invalid", e.message))
    return Result.fail(new LayoutError("Invalid", e instanceof Error ? e.message : String(e)))
  }
}
