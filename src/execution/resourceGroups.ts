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
import { addressEquals } from "../domain/AccountAddress.js"
import type { StructTag } from "../domain/TypeTag.js"
import { structTagEquals } from "../domain/TypeTagString.js"
import type { CompiledModule } from "../move/binary/CompiledModule.js"
import { decodeModuleMetadata } from "../move/metadata/decodeMetadata.js"
import { AttributeKind } from "../move/metadata/ModuleMetadata.js"
import { groupOf, type ResourceGroupScope, resourceGroupScopeOf } from "../move/metadata/validateMetadata.js"
import { moduleIdFrom, moduleIdOf } from "../move/verifier/dependencies.js"

interface GroupFacts {
  /** Group struct name → scope. */
  readonly groups: Map<string, ResourceGroupScope>
  /** Member struct name → its group. */
  readonly members: Map<string, StructTag>
}

const WIDTH: Record<ResourceGroupScope, number> = { module_: 0, address: 1, global: 2 }

/** The module's groups and members, or the reference's message for a duplicate attribute. */
const factsOf = (m: CompiledModule): GroupFacts | string => {
  const meta = decodeModuleMetadata(m)
  const groups = new Map<string, ResourceGroupScope>()
  const members = new Map<string, StructTag>()
  if (Result.isFailure(meta)) return { groups, members }
  for (const [name, attrs] of meta.success.structAttributes)
    for (const a of attrs) {
      if (a.kind === AttributeKind.ResourceGroup) {
        const scope = resourceGroupScopeOf(a)
        if (scope === undefined) return "Invalid resource_group attribute"
        if (groups.has(name)) return "Found duplicate resource_group attribute"
        groups.set(name, scope)
      } else if (a.kind === AttributeKind.ResourceGroupMember) {
        const group = groupOf(a)
        if (group === undefined) return "Invalid resource_group_member attribute"
        if (members.has(name)) return "Found duplicate resource_group_member attribute"
        members.set(name, group)
      }
    }
  return { groups, members }
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
  const members: Array<{ readonly module: CompiledModule; readonly group: StructTag }> = []
  for (const m of bundle) {
    const facts = factsOf(m)
    if (typeof facts === "string") return facts
    const { groups } = facts
    const old = previous(m)
    if (old !== undefined) {
      const before = factsOf(old)
      if (typeof before === "string") return before
      const structs = new Set(old.structDefs.map((d) => old.identifiers[old.structHandles[d.structHandle]!.name]!))
      const newMembers = new Map(facts.members)
      for (const [member, group] of before.members) {
        const kept = newMembers.get(member)
        if (kept === undefined || !structTagEquals(kept, group))
          return "Invalid removal of resource_group_member attribute"
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
      for (const member of newMembers.keys())
        if (structs.has(member)) return "Invalid addition of resource_group_member attribute"
    }
    groupsByModule.set(moduleIdOf(m, m.selfModuleHandleIndex), groups)
    for (const group of facts.members.values()) members.push({ module: m, group })
  }
  for (const { module, group } of members) {
    const groupModule = moduleIdFrom(group.address, group.module)
    let groups = groupsByModule.get(groupModule)
    if (groups === undefined) {
      const defining = published(group.address, group.module)
      if (defining === undefined) return "No such resource_group"
      const facts = factsOf(defining)
      if (typeof facts === "string") return facts
      groups = facts.groups
      groupsByModule.set(groupModule, groups)
    }
    const scope = groups.get(group.name)
    if (scope === undefined) return "Invalid resource_group attribute"
    const self = module.moduleHandles[module.selfModuleHandleIndex]!
    const sameAddress = addressEquals(module.addressIdentifiers[self.address]!, group.address)
    if (
      (scope === "address" && !sameAddress) ||
      (scope === "module_" && moduleIdOf(module, module.selfModuleHandleIndex) !== groupModule)
    )
      return "Scope mismatch"
  }
  return undefined
}
