/**
 * Resource groups across a published bundle and the modules it replaces (the reference's
 * `validate_resource_groups`, with SAFER_RESOURCE_GROUPS as devnet and mainnet enable it):
 *
 *  - an upgrade keeps every member in the group it was in, and every group, at the same or a
 *    wider scope (`module_` < `address` < `global`);
 *  - an existing struct never becomes a group or a member (its values are stored on their own);
 *  - each member names a group that exists — in the bundle or already published — and lies within
 *    that group's scope (the same module for `module_`, the same address for `address`).
 *
 * Why: the VM stores a group's members together under the group's key (`move/vm/Session.ts`); a
 * struct that moved in or out of a group after values of it were stored would find them missing,
 * or written twice, and a member outside its group's scope could write into another account's or
 * module's group.
 */
import { Result } from "effect"
import { addressToShortString, parseAddress } from "../domain/AccountAddress.js"
import type { CompiledModule } from "../move/binary/CompiledModule.js"
import { decodeModuleMetadata } from "../move/metadata/decodeMetadata.js"
import { AttributeKind } from "../move/metadata/ModuleMetadata.js"
import { groupNameOf, type ResourceGroupScope, resourceGroupScopeOf } from "../move/metadata/validateMetadata.js"

interface GroupFacts {
  /** Group struct name → scope. */
  readonly groups: Map<string, ResourceGroupScope>
  /** Member struct name → its group, `0x…::module::Name` with the address in long hex. */
  readonly members: Map<string, string>
}

const WIDTH: Record<ResourceGroupScope, number> = { module_: 0, address: 1, global: 2 }

/** The module's groups and members, or the reference's message for a duplicate attribute. */
const factsOf = (m: CompiledModule): GroupFacts | string => {
  const meta = decodeModuleMetadata(m)
  const groups = new Map<string, ResourceGroupScope>()
  const members = new Map<string, string>()
  if (Result.isFailure(meta)) return { groups, members }
  for (const [name, attrs] of meta.success.structAttributes)
    for (const a of attrs) {
      if (a.kind === AttributeKind.ResourceGroup) {
        const scope = resourceGroupScopeOf(a)
        if (scope === undefined) return "Invalid resource_group attribute"
        if (groups.has(name)) return "Found duplicate resource_group attribute"
        groups.set(name, scope)
      } else if (a.kind === AttributeKind.ResourceGroupMember) {
        const group = groupNameOf(a)
        const address = group === undefined ? undefined : parseAddress(group.address)
        if (group === undefined || address === undefined || Result.isFailure(address))
          return "Invalid resource_group_member attribute"
        if (members.has(name)) return "Found duplicate resource_group_member attribute"
        members.set(name, `${moduleKey(address.success, group.module)}::${group.name}`)
      }
    }
  return { groups, members }
}

const moduleKey = (address: Uint8Array, name: string): string => `${addressToShortString(address)}::${name}`
const selfKey = (m: CompiledModule): string => {
  const h = m.moduleHandles[m.selfModuleHandleIndex]!
  return moduleKey(m.addressIdentifiers[h.address]!, m.identifiers[h.name]!)
}

/**
 * Why the bundle's resource groups are refused (the reference's message, without its
 * "metadata and code bundle mismatch: " prefix), or undefined. `previous(m)`: the module `m`
 * replaces, if any; `published(address, name)`: a module already on chain.
 */
export const resourceGroupsError = (
  bundle: ReadonlyArray<CompiledModule>,
  previous: (m: CompiledModule) => CompiledModule | undefined,
  published: (address: Uint8Array, name: string) => CompiledModule | undefined
): string | undefined => {
  const groupsByModule = new Map<string, Map<string, ResourceGroupScope>>()
  const membersByModule = new Map<string, Map<string, string>>()
  for (const m of bundle) {
    const facts = factsOf(m)
    if (typeof facts === "string") return facts
    const { groups, members } = facts
    const old = previous(m)
    if (old !== undefined) {
      const before = factsOf(old)
      if (typeof before === "string") return before
      const structs = new Set(old.structDefs.map((d) => old.identifiers[old.structHandles[d.structHandle]!.name]!))
      const newMembers = new Map(members)
      for (const [member, group] of before.members) {
        if (newMembers.get(member) !== group) return "Invalid removal of resource_group_member attribute"
        newMembers.delete(member)
        structs.delete(member)
      }
      for (const [group, scope] of before.groups) {
        const now = groups.get(group)
        if (now === undefined) return "Invalid change in resource_group"
        if (WIDTH[now] < WIDTH[scope]) return "Invalid removal of resource_group attribute"
        structs.delete(group)
      }
      for (const group of groups.keys()) if (structs.has(group)) return "Invalid addition of resource_group attribute"
      for (const member of newMembers.keys()) if (structs.has(member)) return "Invalid addition of resource_group_member attribute"
    }
    const key = selfKey(m)
    groupsByModule.set(key, groups)
    membersByModule.set(key, members)
  }
  for (const [memberModule, members] of membersByModule)
    for (const group of members.values()) {
      const cut = group.lastIndexOf("::")
      const groupModule = group.slice(0, cut)
      const groupName = group.slice(cut + 2)
      let groups = groupsByModule.get(groupModule)
      if (groups === undefined) {
        const [address, name] = groupModule.split("::") as [string, string]
        const parsed = parseAddress(address)
        const module = Result.isSuccess(parsed) ? published(parsed.success, name) : undefined
        if (module === undefined) return "No such resource_group"
        const facts = factsOf(module)
        if (typeof facts === "string") return facts
        groups = facts.groups
        groupsByModule.set(groupModule, groups)
      }
      const scope = groups.get(groupName)
      if (scope === undefined) return "Invalid resource_group attribute"
      const sameAddress = memberModule.split("::")[0] === groupModule.split("::")[0]
      if ((scope === "address" && !sameAddress) || (scope === "module_" && memberModule !== groupModule)) return "Scope mismatch"
    }
  return undefined
}

