import * as Result from "effect/Result"
import type { CompiledModule } from "../binary/CompiledModule.js"
import { decodeModuleMetadata } from "../metadata/decodeMetadata.js"
import { AttributeKind, errorDescription, isViewFunction, type ModuleMetadata } from "../metadata/ModuleMetadata.js"

/**
 * What the VM needs of a module's Aptos metadata (decoded by `move/metadata`), precomputed once per
 * loaded module: the view functions, the resource-group membership of structs, the error map.
 */
export interface VmModuleMetadata {
  readonly views: ReadonlySet<string>
  /** Struct name → the fully qualified name of the resource group it belongs to. */
  readonly groupMembers: ReadonlyMap<string, string>
  readonly metadata: ModuleMetadata
}

const EMPTY_SET: ReadonlySet<string> = new Set()

/** Malformed metadata reads as empty rather than failing the module: it only feeds lookups. */
export const vmModuleMetadata = (m: CompiledModule): VmModuleMetadata => {
  const decoded = decodeModuleMetadata(m)
  if (Result.isFailure(decoded))
    return {
      views: EMPTY_SET,
      groupMembers: new Map(),
      metadata: {
        errorMap: new Map(),
        structAttributes: new Map(),
        functionAttributes: new Map(),
        compilation: undefined
      }
    }
  const metadata = decoded.success
  const views = new Set<string>()
  for (const name of metadata.functionAttributes.keys()) if (isViewFunction(metadata, name)) views.add(name)
  const groupMembers = new Map<string, string>()
  for (const [name, attrs] of metadata.structAttributes) {
    const member = attrs.find((a) => a.kind === AttributeKind.ResourceGroupMember)
    if (member?.args[0] !== undefined) groupMembers.set(name, member.args[0])
  }
  return { views, groupMembers, metadata }
}

/** The error-map entry of an abort code (by reason, then by whole code, as the reference). */
export const abortInfo = (
  m: VmModuleMetadata,
  code: bigint
): { readonly name: string; readonly description: string } | undefined => {
  const d = errorDescription(m.metadata, code)
  return d === undefined ? undefined : { name: d.codeName, description: d.codeDescription }
}

/** The abort code whose error-map name is `name`, if the module declares one. */
export const abortCodeNamed = (m: VmModuleMetadata, name: string): bigint | undefined => {
  for (const [code, d] of m.metadata.errorMap) if (d.codeName === name) return code
  return undefined
}
