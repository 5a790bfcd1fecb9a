import type { CompiledModule, FunctionHandle } from "../../move/binary/CompiledModule.js"

/**
 * Entry functions by name, per decoded module. A decoded module is immutable and a new module
 * version is a new object, so the index lives as long as the module does.
 */
const entryIndex = new WeakMap<CompiledModule, Map<string, FunctionHandle>>()

const indexEntryFunctions = (module: CompiledModule): Map<string, FunctionHandle> => {
  const byName = new Map<string, FunctionHandle>()
  for (const def of module.functionDefs) {
    if (!def.isEntry) continue
    const handle = module.functionHandles[def.function]!
    const name = module.identifiers[handle.name]!
    // The first definition wins, as the linear search it stands for did.
    if (!byName.has(name)) byName.set(name, handle)
  }
  return byName
}

/**
 * The entry function `name` of `module` (public or private: the reference's `find_entry_function`
 * searches the exposed functions, which include private entry functions), or undefined.
 */
export const findEntryFunction = (module: CompiledModule, name: string): FunctionHandle | undefined => {
  let byName = entryIndex.get(module)
  if (byName === undefined) entryIndex.set(module, (byName = indexEntryFunctions(module)))
  return byName.get(name)
}
