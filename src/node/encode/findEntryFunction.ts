import type { CompiledModule, FunctionHandle } from "../../move/binary/CompiledModule.js"

/**
 * The entry function `name` of `module` (public or private: the reference's `find_entry_function`
 * searches the exposed functions, which include private entry functions), or undefined.
 */
export const findEntryFunction = (module: CompiledModule, name: string): FunctionHandle | undefined => {
  for (const def of module.functionDefs) {
    if (!def.isEntry) continue
    const handle = module.functionHandles[def.function]!
    if (module.identifiers[handle.name] === name) return handle
  }
  return undefined
}
