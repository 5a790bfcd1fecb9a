/**
 * What publishing checks of one module's Aptos metadata (the reference's
 * `verify_module_metadata_for_module_publish`, with the features devnet and mainnet enable):
 *
 *  - **complexity**: the module's types and names, weighed as the reference weighs them (10 a type
 *    node, 1 a character of each struct and module name a struct node names, of each function,
 *    struct, field and variant name), stay within 200,000,000 — every signature counted again for
 *    each function handle that uses it, so sharing one large signature among thousands of handles
 *    does not escape the count;
 *  - **format**: metadata entries only under the keys the reference knows (`aptos::metadata_v0` or
 *    `_v1`, at most one of them, and `compilation_metadata` at most once), each decoding whole;
 *  - **attributes**: `#[view]` only on a function of this module that returns something;
 *    `#[randomness]` only on a private entry function; `#[resource_group(scope)]` only on a struct
 *    without abilities or type parameters and with one field, the scope one of `global`, `address`,
 *    `module_`; `#[resource_group_member(group = …)]` only on a struct with `key`, the group a
 *    parseable struct name; `#[event]` on any struct; nothing else.
 *
 * Why: metadata drives the VM (view functions, resource groups, events, randomness); what the
 * reference refuses at publish, a local chain should refuse too, with its message.
 */
import * as Result from "effect/Result"
import { Ability, type CompiledModule } from "../binary/CompiledModule.js"
import { innerTokens, type SignatureToken } from "../binary/SignatureToken.js"
import { decodeModuleMetadata, entryDecodes, METADATA_V0_KEY, METADATA_V1_KEY } from "./decodeMetadata.js"
import type { StructTag } from "../../domain/TypeTag.js"
import { AttributeKind, type KnownAttribute, type ModuleMetadata, parseResourceGroupName } from "./ModuleMetadata.js"

const NODE_COST = 10
const IDENT_CHAR_COST = 1
export const COMPLEXITY_BUDGET = 200_000_000

/** A resource group's scope, as the attribute's argument spells it. */
export type ResourceGroupScope = "global" | "address" | "module_"

export const resourceGroupScopeOf = (a: KnownAttribute): ResourceGroupScope | undefined => {
  const s = a.args[0]
  return s === "global" || s === "address" || s === "module_" ? s : undefined
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/

/**
 * The group a member's attribute names, `0x…::module::Name` (no type arguments) with a hex address
 * and identifiers; undefined otherwise. The struct tag is the loader's reading of the same text
 * (`parseResourceGroupName`).
 */
export const groupOf = (a: KnownAttribute): StructTag | undefined => {
  const text = a.args[0]
  const tag = text === undefined ? undefined : parseResourceGroupName(text)
  if (tag === undefined || !/^0x[0-9a-fA-F]{1,64}::/.test(text!)) return undefined
  return IDENTIFIER.test(tag.module) && IDENTIFIER.test(tag.name) ? tag : undefined
}

const tooComplex = (m: CompiledModule): boolean => {
  let meter = 0
  const ident = (i: number): boolean => (meter += (m.identifiers[i]?.length ?? 0) * IDENT_CHAR_COST) > COMPLEXITY_BUDGET
  const token = (t: SignatureToken): boolean => {
    const stack: SignatureToken[] = [t]
    for (let x = stack.pop(); x !== undefined; x = stack.pop()) {
      meter += NODE_COST
      if (x._tag === "Struct" || x._tag === "StructInstantiation") {
        const h = m.structHandles[x.handle]
        if (h !== undefined && (ident(h.name) || ident(m.moduleHandles[h.module]?.name ?? -1))) return true
      }
      stack.push(...innerTokens(x))
      if (meter > COMPLEXITY_BUDGET) return true
    }
    return false
  }
  const tokens = (index: number): boolean => (m.signatures[index] ?? []).some(token)
  for (const s of m.signatures) if (s.some(token)) return true
  for (const h of m.functionHandles) if (ident(h.name) || tokens(h.parameters) || tokens(h.returns)) return true
  for (const h of m.structHandles) if (ident(h.name)) return true
  for (const d of m.structDefs) {
    const fi = d.fieldInformation
    const variants =
      fi._tag === "Declared" ? [{ name: -1, fields: fi.fields }] : fi._tag === "DeclaredVariants" ? fi.variants : []
    for (const v of variants) {
      if (v.name >= 0 && ident(v.name)) return true
      for (const f of v.fields) if (ident(f.name) || token(f.type)) return true
    }
  }
  for (const d of m.functionDefs) if (d.code !== undefined && tokens(d.code.locals)) return true
  return false
}

const formatError = (m: CompiledModule): string | undefined => {
  const text = new TextDecoder()
  let aptos = false
  let compilation = false
  for (const entry of m.metadata) {
    const key = text.decode(entry.key)
    const decodes = entryDecodes(key, entry.value)
    if (decodes === undefined) return `Unknown key found: ${JSON.stringify(key)}`
    if (key === METADATA_V0_KEY || key === METADATA_V1_KEY) {
      if (aptos) return "Duplicate key for metadata"
      aptos = true
    } else {
      if (compilation) return "Duplicate key for metadata"
      compilation = true
    }
    if (!decodes) return `Unable to deserialize value for ${JSON.stringify(key)}`
  }
  return undefined
}

const attributeError = (m: CompiledModule, meta: ModuleMetadata): string | undefined => {
  const unknown = (key: string, kind: number) => `Unknown attribute (${kind}) for key: ${key}`
  const functions = new Map(
    m.functionDefs.map((d) => {
      const h = m.functionHandles[d.function]!
      return [m.identifiers[h.name]!, { h, d }] as const
    })
  )
  for (const [name, attrs] of meta.functionAttributes)
    for (const a of attrs) {
      const f = functions.get(name)
      if (a.kind === AttributeKind.View || a.kind === AttributeKind.LegacyView) {
        if (f === undefined || (m.signatures[f.h.returns]?.length ?? 0) === 0) return unknown(name, AttributeKind.View)
      } else if (a.kind === AttributeKind.Randomness) {
        if (f === undefined || !f.d.isEntry || f.d.visibility === 1) return unknown(name, AttributeKind.Randomness)
      } else return unknown(name, a.kind)
    }
  const structs = new Map(
    m.structDefs.map((d) => {
      const h = m.structHandles[d.structHandle]!
      return [m.identifiers[h.name]!, { h, d }] as const
    })
  )
  for (const [name, attrs] of meta.structAttributes)
    for (const a of attrs) {
      const s = structs.get(name)
      if (a.kind === AttributeKind.ResourceGroup && resourceGroupScopeOf(a) !== undefined) {
        const fields = s?.d.fieldInformation._tag === "Declared" ? s.d.fieldInformation.fields.length : 0
        // The reference names the view attribute in this message (its code does); so do we.
        if (s === undefined || s.h.abilities !== 0 || s.h.typeParameters.length > 0 || fields !== 1)
          return unknown(name, AttributeKind.View)
      } else if (a.kind === AttributeKind.ResourceGroupMember && groupOf(a) !== undefined) {
        if (s === undefined || (s.h.abilities & Ability.Key) === 0) return unknown(name, AttributeKind.View)
      } else if (a.kind !== AttributeKind.Event) return unknown(name, a.kind)
    }
  return undefined
}

/** Why publishing `m` is refused for its metadata (the reference's message), or undefined. */
export const publishMetadataError = (m: CompiledModule): string | undefined => {
  if (tooComplex(m)) return "Module too complex"
  const format = formatError(m)
  if (format !== undefined) return format
  const meta = decodeModuleMetadata(m)
  // A module whose metadata does not decode has none, as the reference reads it (format caught it).
  return Result.isSuccess(meta) ? attributeError(m, meta.success) : undefined
}
