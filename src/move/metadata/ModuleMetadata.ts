/**
 * Aptos metadata sections of a compiled module (§1.6): `aptos::metadata_v0` (error map only),
 * `aptos::metadata_v1` (error map + struct and function attributes) and `compilation_metadata`.
 */

import * as Result from "effect/Result"
import { parseAddress } from "../../domain/AccountAddress.js"
import type { StructTag } from "../../domain/TypeTag.js"

/** A `#[view]`, `#[event]`, resource-group … attribute recorded by the compiler. */
export interface KnownAttribute {
  readonly kind: number
  readonly args: ReadonlyArray<string>
}

export const AttributeKind = {
  LegacyView: 0,
  View: 1,
  ResourceGroup: 2,
  ResourceGroupMember: 3,
  Event: 4,
  Randomness: 5
} as const

export interface ErrorDescription {
  readonly codeName: string
  readonly codeDescription: string
}

export interface CompilationMetadata {
  readonly unstable: boolean
  readonly compilerVersion: string
  readonly languageVersion: string
}

export interface ModuleMetadata {
  /** Abort reason → description, keyed by the u64 in the map. */
  readonly errorMap: ReadonlyMap<bigint, ErrorDescription>
  readonly structAttributes: ReadonlyMap<string, ReadonlyArray<KnownAttribute>>
  readonly functionAttributes: ReadonlyMap<string, ReadonlyArray<KnownAttribute>>
  /** undefined when the module carries no `compilation_metadata` entry. */
  readonly compilation: CompilationMetadata | undefined
}

export const emptyMetadata: ModuleMetadata = {
  errorMap: new Map(),
  structAttributes: new Map(),
  functionAttributes: new Map(),
  compilation: undefined
}

const hasKind = (attrs: ReadonlyArray<KnownAttribute> | undefined, kinds: ReadonlyArray<number>): boolean =>
  attrs?.some((a) => kinds.includes(a.kind)) === true

/** A view function carries attribute kind 0 (legacy view) or 1 (view). */
export const isViewFunction = (meta: ModuleMetadata, name: string): boolean =>
  hasKind(meta.functionAttributes.get(name), [AttributeKind.LegacyView, AttributeKind.View])

/** An `#[event]` struct carries attribute kind 4. */
export const isEventStruct = (meta: ModuleMetadata, name: string): boolean =>
  hasKind(meta.structAttributes.get(name), [AttributeKind.Event])

/**
 * The error-map entry for an abort code, looked up as the reference VM does: first by the reason
 * (the low 12 bits, since canonical codes carry a category above them), then by the whole code.
 */
export const errorDescription = (meta: ModuleMetadata, abortCode: bigint): ErrorDescription | undefined =>
  meta.errorMap.get(abortCode & 0xfffn) ?? meta.errorMap.get(abortCode)

/**
 * A resource group's name as a member's attribute spells it (`0x1::object::ObjectGroup`), as a
 * struct tag without type arguments; undefined unless it is three `::`-separated parts, an address
 * first.
 */
export const parseResourceGroupName = (text: string): StructTag | undefined => {
  const parts = text.split("::")
  if (parts.length !== 3) return undefined
  const address = parseAddress(parts[0]!)
  if (Result.isFailure(address)) return undefined
  return { address: address.success, module: parts[1]!, name: parts[2]!, typeArgs: [] }
}
