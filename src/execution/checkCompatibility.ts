/**
 * The upgrade rules of the `compatible` policy (move-binary-format `compatibility.rs`, as
 * `Compatibility::new(check_struct_layout, check_friend_linking)` applies them when a module
 * replaces one already published):
 * - every struct the old module declares still exists with the same abilities, type parameters
 *   (constraints and phantom-ness) and, since layouts are checked, the same fields (names and
 *   types) or the same variants (an enum may only append variants);
 * - every public function (and, with friend linking checked, every friend function; and every
 *   entry function) still exists with the same visibility or a wider one, the same parameters,
 *   return types and type-parameter constraints; an entry function stays entry.
 * Types are compared by what they name (address, module, struct), not by handle index.
 */
import { addressEquals } from "../domain/AccountAddress.js"
import type { CompiledModule, FunctionDefinition, SignatureToken } from "../move/binary/CompiledModule.js"
import { Visibility } from "../move/binary/CompiledModule.js"

const structName = (m: CompiledModule, handle: number): string => {
  const h = m.structHandles[handle]!
  const mh = m.moduleHandles[h.module]!
  return `${Buffer.from(m.addressIdentifiers[mh.address]!).toString("hex")}::${m.identifiers[mh.name]}::${m.identifiers[h.name]}`
}

/** A token as text naming its structs (comparable across two compiled modules); depth-bounded by the binary format. */
const tokenText = (m: CompiledModule, t: SignatureToken): string => {
  switch (t._tag) {
    case "Reference":
      return `&${tokenText(m, t.to)}`
    case "MutableReference":
      return `&mut ${tokenText(m, t.to)}`
    case "Vector":
      return `vector<${tokenText(m, t.element)}>`
    case "Struct":
      return structName(m, t.handle)
    case "StructInstantiation":
      return `${structName(m, t.handle)}<${t.typeArgs.map((a) => tokenText(m, a)).join(",")}>`
    case "TypeParameter":
      return `T${t.index}`
    case "Function":
      return `|${t.args.map((a) => tokenText(m, a)).join(",")}|${t.results.map((a) => tokenText(m, a)).join(",")} has ${t.abilities}`
    default:
      return t._tag
  }
}

const signatureText = (m: CompiledModule, index: number): string =>
  (m.signatures[index] ?? []).map((t) => tokenText(m, t)).join(",")

const structShape = (
  m: CompiledModule,
  defIndex: number
): { header: string; fields: string[]; variants: string[][] } => {
  const d = m.structDefs[defIndex]!
  const h = m.structHandles[d.structHandle]!
  const header = `${h.abilities}|${h.typeParameters.map((p) => `${p.constraints}${p.isPhantom ? "p" : ""}`).join(",")}`
  const field = (f: { name: number; type: SignatureToken }) => `${m.identifiers[f.name]}:${tokenText(m, f.type)}`
  const info = d.fieldInformation
  if (info._tag === "Declared") return { header, fields: info.fields.map(field), variants: [] }
  if (info._tag === "DeclaredVariants")
    return { header, fields: [], variants: info.variants.map((v) => [m.identifiers[v.name]!, ...v.fields.map(field)]) }
  return { header: `${header}|native`, fields: [], variants: [] }
}

const structsByName = (m: CompiledModule): Map<string, number> => {
  const out = new Map<string, number>()
  for (let i = 0; i < m.structDefs.length; i++)
    out.set(m.identifiers[m.structHandles[m.structDefs[i]!.structHandle]!.name]!, i)
  return out
}

const functionsByName = (m: CompiledModule): Map<string, FunctionDefinition> => {
  const out = new Map<string, FunctionDefinition>()
  for (const d of m.functionDefs) out.set(m.identifiers[m.functionHandles[d.function]!.name]!, d)
  return out
}

const functionShape = (m: CompiledModule, d: FunctionDefinition): string => {
  const h = m.functionHandles[d.function]!
  return `${signatureText(m, h.parameters)}->${signatureText(m, h.returns)}<${h.typeParameters.join(",")}>`
}

/** Why `next` may not replace `prev` under the compatible policy, or undefined when it may. */
export const incompatibility = (
  prev: CompiledModule,
  next: CompiledModule,
  checkFriendLinking: boolean
): string | undefined => {
  const nextStructs = structsByName(next)
  for (const [name, i] of structsByName(prev)) {
    const j = nextStructs.get(name)
    if (j === undefined) return `struct ${name} removed`
    const a = structShape(prev, i)
    const b = structShape(next, j)
    if (a.header !== b.header) return `struct ${name} changed its abilities or type parameters`
    if (a.fields.join(";") !== b.fields.join(";")) return `struct ${name} changed its fields`
    if (a.variants.length > b.variants.length) return `enum ${name} removed variants`
    for (let k = 0; k < a.variants.length; k++)
      if (a.variants[k]!.join(";") !== b.variants[k]!.join(";"))
        return `enum ${name} changed variant ${a.variants[k]![0]}`
  }
  const nextFns = functionsByName(next)
  for (const [name, d] of functionsByName(prev)) {
    const mustKeep =
      d.visibility === Visibility.Public || d.isEntry || (checkFriendLinking && d.visibility === Visibility.Friend)
    if (!mustKeep) continue
    const e = nextFns.get(name)
    if (e === undefined) return `function ${name} removed`
    if (d.visibility === Visibility.Public && e.visibility !== Visibility.Public)
      return `function ${name} is no longer public`
    if (d.visibility === Visibility.Friend && checkFriendLinking && e.visibility === Visibility.Private)
      return `function ${name} is no longer visible to friends`
    if (d.isEntry && !e.isEntry) return `function ${name} is no longer an entry function`
    if (functionShape(prev, d) !== functionShape(next, e)) return `function ${name} changed its signature`
  }
  const selfAddress = (m: CompiledModule) => m.addressIdentifiers[m.moduleHandles[m.selfModuleHandleIndex]!.address]!
  if (!addressEquals(selfAddress(prev), selfAddress(next))) return "the module moved to another address"
  return undefined
}
