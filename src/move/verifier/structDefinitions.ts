/**
 * What the type-safety pass trusts about this module's own struct definitions (the reference's
 * `ability_field_requirements` and `struct_defs` passes):
 *
 *  - **field abilities**: a struct may declare an ability only if every field allows it — copy and
 *    drop need copy and drop of each field, store and key need store (FIELD_MISSING_TYPE_ABILITY),
 *    the struct's type parameters assumed to have every ability (an instance's abilities are
 *    narrowed by its arguments anyway, `abilities.ts`). Type safety reads a struct's abilities from
 *    its handle: without this pass a module could declare `struct Box has copy { c: Coin<AptosCoin> }`
 *    and copy the coin inside;
 *  - **no recursion**: no struct contains itself, directly or through vectors, type arguments or
 *    other structs of this module (RECURSIVE_STRUCT_DEFINITION); its values would have no finite
 *    layout.
 *
 * Variants of an enum count as fields. Field names are unique within a struct or variant, and
 * variant names within an enum. Structs of other modules cannot close a cycle: they are
 * defined before this module is.
 */
import { Ability, type CompiledModule, type FieldDefinition, type StructDefinition } from "../binary/CompiledModule.js"
import type { SignatureToken } from "../binary/SignatureToken.js"
import { abilitiesOf } from "./abilities.js"
import type { VerifyFailure } from "./VerifyFailure.js"

/** Every field of a struct definition, its variants' fields one after another for an enum. */
export const fieldsOf = (d: StructDefinition): ReadonlyArray<FieldDefinition> => {
  const fi = d.fieldInformation
  return fi._tag === "Declared" ? fi.fields : fi._tag === "DeclaredVariants" ? fi.variants.flatMap((v) => v.fields) : []
}

/** What declaring `abilities` requires of each field: copy → copy, drop → drop, store and key → store. */
const requiredOfFields = (abilities: number): number =>
  (abilities & Ability.Copy) |
  (abilities & Ability.Drop) |
  (abilities & (Ability.Store | Ability.Key) ? Ability.Store : 0)

const ALL = Ability.Copy | Ability.Drop | Ability.Store | Ability.Key

/**
 * Two fields of one struct (or of one variant), or two variants of one enum, with one name: the
 * reference's duplication check refuses them (DUPLICATE_ELEMENT), and a resource would render as
 * JSON with one of the two values lost.
 */
const duplicateName = (m: CompiledModule, d: StructDefinition): string | undefined => {
  const fi = d.fieldInformation
  const lists =
    fi._tag === "Declared"
      ? [fi.fields.map((f) => f.name)]
      : fi._tag === "DeclaredVariants"
        ? [fi.variants.map((v) => v.name), ...fi.variants.map((v) => v.fields.map((f) => f.name))]
        : []
  for (const names of lists) {
    const seen = new Set<string>()
    for (const n of names) {
      const name = m.identifiers[n]!
      if (seen.has(name)) return name
      seen.add(name)
    }
  }
  return undefined
}

export const verifyStructDefinitions = (m: CompiledModule): VerifyFailure | undefined => {
  for (const d of m.structDefs) {
    const h = m.structHandles[d.structHandle]!
    const twice = duplicateName(m, d)
    if (twice !== undefined)
      return { status: "DUPLICATE_ELEMENT", message: `struct ${m.identifiers[h.name]} names ${twice} twice` }
    // A struct has a field (compilers add `dummy_field: bool` to an empty one); an enum's variant may have none.
    if (d.fieldInformation._tag === "Declared" && d.fieldInformation.fields.length === 0)
      return { status: "ZERO_SIZED_STRUCT", message: `struct ${m.identifiers[h.name]} has no field` }
    const required = requiredOfFields(h.abilities)
    const typeParameters = h.typeParameters.map(() => ALL)
    for (const f of fieldsOf(d)) {
      const has = abilitiesOf(m, f.type, typeParameters)
      if ((has & required) !== required)
        return {
          status: "FIELD_MISSING_TYPE_ABILITY",
          message: `struct ${m.identifiers[h.name]}: field ${m.identifiers[f.name]} lacks an ability the struct declares`
        }
    }
  }
  return recursion(m)
}

/** Depth-first over "struct definition contains struct definition" edges of this module. */
const recursion = (m: CompiledModule): VerifyFailure | undefined => {
  const defOfHandle = new Map<number, number>(m.structDefs.map((d, i) => [d.structHandle, i]))
  const contains = (t: SignatureToken, out: Set<number>): void => {
    switch (t._tag) {
      case "Struct": {
        const d = defOfHandle.get(t.handle)
        if (d !== undefined) out.add(d)
        return
      }
      case "StructInstantiation": {
        const d = defOfHandle.get(t.handle)
        if (d !== undefined) out.add(d)
        for (const a of t.typeArgs) contains(a, out)
        return
      }
      case "Vector":
        contains(t.element, out)
        return
      case "Reference":
      case "MutableReference":
        contains(t.to, out)
        return
      default:
        return
    }
  }
  const edges = m.structDefs.map((d) => {
    const out = new Set<number>()
    for (const f of fieldsOf(d)) contains(f.type, out)
    return [...out]
  })
  // 0 unvisited, 1 on the current path, 2 done; an explicit stack (a module may define thousands of structs).
  const state = new Uint8Array(m.structDefs.length)
  for (let root = 0; root < m.structDefs.length; root++) {
    if (state[root] !== 0) continue
    const stack: Array<{ node: number; next: number }> = [{ node: root, next: 0 }]
    state[root] = 1
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!
      const out = edges[top.node]!
      if (top.next === out.length) {
        state[top.node] = 2
        stack.pop()
        continue
      }
      const to = out[top.next++]!
      if (state[to] === 1) {
        const h = m.structHandles[m.structDefs[to]!.structHandle]!
        return { status: "RECURSIVE_STRUCT_DEFINITION", message: `struct ${m.identifiers[h.name]} contains itself` }
      }
      if (state[to] === 0) {
        state[to] = 1
        stack.push({ node: to, next: 0 })
      }
    }
  }
  return undefined
}
