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

type Handle = { readonly address: number; readonly name: number }

/**
 * A depth-first walk from `m` along `edges` (each module's handles of the next ones, read in its
 * own tables), every module visited once (those in `seen` at the start never): `visit` sees each
 * module id reached with the module it was reached from, and may end the walk with a refusal.
 * Absent modules are not followed (their absence is the dependency pass's LINKER_ERROR). The ids
 * visited, `seen`'s included.
 */
const walk = (
  m: CompiledModule,
  edges: (tables: CompiledModule) => ReadonlyArray<Handle>,
  visit: (id: string, from: CompiledModule) => VerifyFailure | undefined,
  resolve: ModuleResolver,
  seen: Set<string> = new Set()
): { readonly refused: VerifyFailure } | { readonly seen: ReadonlySet<string> } => {
  const pending: Array<{ readonly tables: CompiledModule; readonly handle: Handle }> = []
  const push = (tables: CompiledModule) => {
    for (const handle of edges(tables)) pending.push({ tables, handle })
  }
  push(m)
  while (pending.length > 0) {
    const { tables, handle } = pending.pop()!
    const id = idOfModuleHandle(tables, handle)
    const refused = visit(id, tables)
    if (refused !== undefined) return { refused }
    if (seen.has(id)) continue
    seen.add(id)
    const next = resolve(tables.addressIdentifiers[handle.address]!, tables.identifiers[handle.name]!)
    if (next !== undefined) push(next)
  }
  return { seen }
}

const dependenciesOf = (t: CompiledModule): ReadonlyArray<Handle> =>
  t.moduleHandles.filter((_, i) => i !== t.selfModuleHandleIndex)
const friendsOf = (t: CompiledModule): ReadonlyArray<Handle> => t.friendDecls

export const verifyNoCycles = (m: CompiledModule, resolve: ModuleResolver): VerifyFailure | undefined => {
  const self = moduleIdOf(m, m.selfModuleHandleIndex)
  const through = (from: CompiledModule) => moduleIdOf(from, from.selfModuleHandleIndex)
  const dependencies = walk(
    m,
    dependenciesOf,
    (id, from) =>
      id === self && from !== m
        ? { status: "CYCLIC_MODULE_DEPENDENCY", message: `module ${self} depends on itself through ${through(from)}` }
        : undefined,
    resolve,
    new Set([self])
  )
  if ("refused" in dependencies) return dependencies.refused
  const deps = dependencies.seen
  const friends = walk(
    m,
    friendsOf,
    (id, from) =>
      id === self
        ? { status: "CYCLIC_MODULE_FRIENDSHIP", message: `module ${self} is its own friend through ${through(from)}` }
        : deps.has(id)
          ? {
              status: "INVALID_FRIEND_DECL_WITH_MODULES_IN_DEPENDENCIES",
              message: `module ${id} is both a dependency and a friend`
            }
          : undefined,
    resolve
  )
  return "refused" in friends ? friends.refused : undefined
}
