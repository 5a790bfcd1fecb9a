/**
 * No module depends on itself through its dependencies (the reference's `cyclic_dependencies`,
 * CYCLIC_MODULE_DEPENDENCY): Move's modules form a directed acyclic graph, which the compiler
 * guarantees and the reference checks again at publish, so that a module can be loaded, and an
 * upgrade judged, after everything it uses. Without the check a hand-made bundle could make two
 * modules call each other, which no compiled package can do. The same for friendship (a module is
 * not its own friend through its friends' friends: CYCLIC_MODULE_FRIENDSHIP), and no module is
 * both a dependency and a friend, directly or transitively
 * (INVALID_FRIEND_DECL_WITH_MODULES_IN_DEPENDENCIES: a friend may call what it depends on).
 *
 * A depth-first walk from the module's dependencies through theirs (the bundle first, then state:
 * `resolve`), each module visited once: the reachable part of the chain's module graph; then one
 * through the friends. A friend not published yet has no friends of its own.
 */
import type { CompiledModule } from "../binary/CompiledModule.js"
import { idOfModuleHandle, type ModuleResolver, moduleIdOf } from "./dependencies.js"
import type { VerifyFailure } from "./VerifyFailure.js"

export const verifyNoCycles = (m: CompiledModule, resolve: ModuleResolver): VerifyFailure | undefined => {
  const self = moduleIdOf(m, m.selfModuleHandleIndex)
  const seen = new Set<string>([self])
  const pending: Array<{ readonly tables: CompiledModule; readonly handle: number }> = []
  const push = (tables: CompiledModule) => {
    for (let i = 0; i < tables.moduleHandles.length; i++) if (i !== tables.selfModuleHandleIndex) pending.push({ tables, handle: i })
  }
  push(m)
  while (pending.length > 0) {
    const { tables, handle } = pending.pop()!
    const id = moduleIdOf(tables, handle)
    if (id === self && tables !== m)
      return { status: "CYCLIC_MODULE_DEPENDENCY", message: `module ${self} depends on itself through ${moduleIdOf(tables, tables.selfModuleHandleIndex)}` }
    if (seen.has(id)) continue
    seen.add(id)
    const h = tables.moduleHandles[handle]!
    const dep = resolve(tables.addressIdentifiers[h.address]!, tables.identifiers[h.name]!)
    // An absent module is the dependency pass's refusal (LINKER_ERROR), not a cycle.
    if (dep !== undefined) push(dep)
  }
  return friendCycle(m, self, seen, resolve)
}

/** The friend walk, given `dependencies` (every module the dependency walk reached, `self` too). */
const friendCycle = (
  m: CompiledModule,
  self: string,
  dependencies: ReadonlySet<string>,
  resolve: ModuleResolver
): VerifyFailure | undefined => {
  const seen = new Set<string>()
  const pending: Array<{ readonly tables: CompiledModule; readonly decl: CompiledModule["friendDecls"][number] }> = []
  const push = (tables: CompiledModule) => {
    for (const decl of tables.friendDecls) pending.push({ tables, decl })
  }
  push(m)
  while (pending.length > 0) {
    const { tables, decl } = pending.pop()!
    const id = idOfModuleHandle(tables, decl)
    if (id === self)
      return { status: "CYCLIC_MODULE_FRIENDSHIP", message: `module ${self} is its own friend through ${moduleIdOf(tables, tables.selfModuleHandleIndex)}` }
    if (seen.has(id)) continue
    seen.add(id)
    if (dependencies.has(id))
      return { status: "INVALID_FRIEND_DECL_WITH_MODULES_IN_DEPENDENCIES", message: `module ${id} is both a dependency and a friend` }
    const friend = resolve(tables.addressIdentifiers[decl.address]!, tables.identifiers[decl.name]!)
    if (friend !== undefined) push(friend)
  }
  return undefined
}
