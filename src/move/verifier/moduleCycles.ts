/**
 * No module depends on itself through its dependencies (the reference's `cyclic_dependencies`,
 * CYCLIC_MODULE_DEPENDENCY): Move's modules form a directed acyclic graph, which the compiler
 * guarantees and the reference checks again at publish, so that a module can be loaded, and an
 * upgrade judged, after everything it uses. Without the check a hand-made bundle could make two
 * modules call each other, which no compiled package can do.
 *
 * A depth-first walk from the module's dependencies through theirs (the bundle first, then state:
 * `resolve`), each module visited once: the reachable part of the chain's module graph.
 */
import type { CompiledModule } from "../binary/CompiledModule.js"
import { type ModuleResolver, moduleIdOf } from "./dependencies.js"
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
  return undefined
}
