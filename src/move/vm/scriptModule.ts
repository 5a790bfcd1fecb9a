import type { CompiledModule, CompiledScript } from "../binary/CompiledModule.js"

/** The reference's pseudo module id of scripts: `0xff…ff::__script__` (never a stored module). */
export const SCRIPT_ADDRESS = new Uint8Array(32).fill(0xff)
export const SCRIPT_MODULE_NAME = "__script__"
export const SCRIPT_FUNCTION_NAME = "main"

/**
 * A script as a module with one private function `main` holding the script's code, so that the
 * loader and interpreter run scripts through the same tables as module functions. The script's own
 * tables are kept at their indices; a self module handle, its two identifiers, its address, an empty
 * return signature and `main`'s handle are appended.
 */
export const scriptAsModule = (script: CompiledScript): CompiledModule => {
  const identifiers = [...script.identifiers, SCRIPT_MODULE_NAME, SCRIPT_FUNCTION_NAME]
  const addressIdentifiers = [...script.addressIdentifiers, SCRIPT_ADDRESS]
  const moduleHandles = [
    ...script.moduleHandles,
    { address: addressIdentifiers.length - 1, name: identifiers.length - 2 }
  ]
  const signatures = [...script.signatures, []]
  const functionHandles = [
    ...script.functionHandles,
    {
      module: moduleHandles.length - 1,
      name: identifiers.length - 1,
      parameters: script.parameters,
      returns: signatures.length - 1,
      typeParameters: script.typeParameters,
      accessSpecifiers: script.accessSpecifiers,
      attributes: []
    }
  ]
  return {
    version: script.version,
    moduleHandles,
    structHandles: script.structHandles,
    functionHandles,
    functionInstantiations: script.functionInstantiations,
    signatures,
    identifiers,
    addressIdentifiers,
    constantPool: script.constantPool,
    metadata: script.metadata,
    selfModuleHandleIndex: moduleHandles.length - 1,
    structDefs: [],
    structDefInstantiations: [],
    functionDefs: [
      {
        function: functionHandles.length - 1,
        visibility: 0,
        isEntry: true,
        acquiresGlobalResources: [],
        code: script.code
      }
    ],
    fieldHandles: [],
    fieldInstantiations: [],
    friendDecls: [],
    variantFieldHandles: [],
    variantFieldInstantiations: [],
    structVariantHandles: [],
    structVariantInstantiations: []
  }
}
