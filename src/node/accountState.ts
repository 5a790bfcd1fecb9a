import * as Result from "effect/Result"
import { Bcs } from "../bcs/index.js"
import type { AccountAddress } from "../domain/AccountAddress.js"
import { resourceGroupCodec } from "../domain/ResourceGroupCodec.js"
import { parseStructTag, structTagEquals } from "../domain/TypeTagString.js"
import type { StructTag } from "../domain/TypeTag.js"
import type { StateReader } from "../ledger/Ledger.js"
import type { ModuleSource } from "../move/layout/ModuleSource.js"
import { vmModuleMetadata } from "../move/vm/moduleMetadata.js"
import { resourceGroupKey, resourceKey } from "./stateKeys.js"

/**
 * Where a resource lives (the reference's `find_resource`): a resource-group member (its module's
 * metadata names the group) is inside the group's value at the account; anything else is under its
 * own resource key. The key to read, and the member to pick out of the group.
 */
export interface ResourceLocation {
  readonly keyBytes: Uint8Array
  readonly groupMember: StructTag | undefined
  /** The struct's module was found: the location is final (a module's group membership never changes). */
  readonly settled: boolean
}

export const resourceLocation = (
  modules: ModuleSource,
  address: AccountAddress,
  struct: StructTag
): ResourceLocation => {
  const module = modules(struct.address, struct.module)
  const groupName = module === undefined ? undefined : vmModuleMetadata(module).groupMembers.get(struct.name)
  const group = groupName === undefined ? undefined : parseStructTag(groupName)
  if (group !== undefined && Result.isSuccess(group))
    return { keyBytes: resourceGroupKey(address, group.success), groupMember: struct, settled: true }
  return { keyBytes: resourceKey(address, struct), groupMember: undefined, settled: module !== undefined }
}

/** The resource's bytes out of its location's stored value (the value itself, or its member of the group). */
export const resourceBytesIn = (location: ResourceLocation, stored: Uint8Array | undefined): Uint8Array | undefined => {
  if (stored === undefined || location.groupMember === undefined) return stored
  const members = Bcs.decode(resourceGroupCodec, stored)
  if (Result.isFailure(members)) return undefined
  for (const m of members.success) if (structTagEquals(m.struct, location.groupMember)) return m.bytes
  return undefined
}

/** A resource's bytes at `state`; undefined when absent. */
export const readResource = (state: StateReader, location: ResourceLocation): Uint8Array | undefined =>
  resourceBytesIn(location, state.get(location.keyBytes))
