import * as Result from "effect/Result"
import { addressToShortString } from "../../domain/AccountAddress.js"
import type { CompiledModule, FieldDefinition, FunctionDefinition, StructDefinition } from "../binary/CompiledModule.js"
import { Visibility } from "../binary/CompiledModule.js"
import { decodeModuleMetadata } from "../metadata/decodeMetadata.js"
import { emptyMetadata, isEventStruct, isViewFunction, type ModuleMetadata } from "../metadata/ModuleMetadata.js"
import type { MoveFunctionAbi, MoveModuleAbi, MoveStructAbi, MoveStructFieldAbi } from "./MoveModuleAbi.js"
import { abilityNames, typeString } from "./typeString.js"

const visibilityName = (v: number): MoveFunctionAbi["visibility"] =>
  v === Visibility.Public ? "public" : v === Visibility.Friend ? "friend" : "private"

const fieldAbi = (m: CompiledModule, f: FieldDefinition): MoveStructFieldAbi => ({
  name: m.identifiers[f.name]!,
  type: typeString(m, f.type)
})

const functionAbi = (m: CompiledModule, meta: ModuleMetadata, def: FunctionDefinition): MoveFunctionAbi => {
  const h = m.functionHandles[def.function]!
  const name = m.identifiers[h.name]!
  return {
    name,
    visibility: visibilityName(def.visibility),
    is_entry: def.isEntry,
    is_view: isViewFunction(meta, name),
    generic_type_params: h.typeParameters.map((c) => ({ constraints: abilityNames(c) })),
    params: m.signatures[h.parameters]!.map((t) => typeString(m, t)),
    return: m.signatures[h.returns]!.map((t) => typeString(m, t))
  }
}

/** Whether a module is `0x1::option` (the one struct the reference serves in a fixed form). */
const isOptionModule = (m: CompiledModule): boolean => {
  const self = m.moduleHandles[m.selfModuleHandleIndex]!
  const address = m.addressIdentifiers[self.address]!
  return m.identifiers[self.name] === "option" && address[31] === 1 && address.subarray(0, 31).every((b) => b === 0)
}

/**
 * `0x1::option::Option` as the reference serves it whatever the framework compiled: its legacy
 * struct form (`vec: vector<T0>`), even where the bytecode declares the enum `None | Some { e }`.
 * Clients (the TypeScript SDK among them) read Option by its `vec` field.
 */
const legacyOptionFields: ReadonlyArray<MoveStructFieldAbi> = [{ name: "vec", type: "vector<T0>" }]

const structAbi = (m: CompiledModule, meta: ModuleMetadata, def: StructDefinition, option: boolean): MoveStructAbi => {
  const h = m.structHandles[def.structHandle]!
  const name = m.identifiers[h.name]!
  const fi = def.fieldInformation
  const legacyOption = option && name === "Option"
  const isEnum = fi._tag === "DeclaredVariants" && !legacyOption
  // Key order is the reference's (MoveStruct in its OpenAPI spec): all eight keys on every struct.
  return {
    name,
    is_native: fi._tag === "Native",
    is_event: isEventStruct(meta, name),
    is_enum: isEnum,
    abilities: abilityNames(h.abilities),
    generic_type_params: h.typeParameters.map((p) => ({ constraints: abilityNames(p.constraints) })),
    fields: legacyOption ? legacyOptionFields : fi._tag === "Declared" ? fi.fields.map((f) => fieldAbi(m, f)) : [],
    variants:
      isEnum && fi._tag === "DeclaredVariants"
        ? fi.variants.map((v) => ({ name: m.identifiers[v.name]!, fields: v.fields.map((f) => fieldAbi(m, f)) }))
        : []
  }
}

/**
 * The REST API's ABI of a module: every public, friend, entry or view function (private entry and
 * private view ones included, since transactions and views can call them; the reference's
 * `test_abi` pins both) and every struct, both in definition order; view and
 * event flags from the module's Aptos metadata (undecodable metadata counts as none, as in the
 * reference). `meta` may be passed when the caller already decoded it.
 */
export const moduleAbi = (m: CompiledModule, meta?: ModuleMetadata): MoveModuleAbi => {
  const md = meta ?? Result.getOrElse(decodeModuleMetadata(m), () => emptyMetadata)
  const self = m.moduleHandles[m.selfModuleHandleIndex]!
  const option = isOptionModule(m)
  return {
    address: addressToShortString(m.addressIdentifiers[self.address]!),
    name: m.identifiers[self.name]!,
    friends: m.friendDecls.map(
      (f) => `${addressToShortString(m.addressIdentifiers[f.address]!)}::${m.identifiers[f.name]}`
    ),
    exposed_functions: m.functionDefs
      .filter(
        (d) =>
          d.isEntry ||
          d.visibility === Visibility.Public ||
          d.visibility === Visibility.Friend ||
          isViewFunction(md, m.identifiers[m.functionHandles[d.function]!.name]!)
      )
      .map((d) => functionAbi(m, md, d)),
    structs: m.structDefs.map((d) => structAbi(m, md, d, option))
  }
}

/** The ABI as compact JSON text (field order as the contract prints it). */
export const moduleAbiJson = (m: CompiledModule, meta?: ModuleMetadata): string => JSON.stringify(moduleAbi(m, meta))
