/**
 * What the type-safety pass assumes of a module's handles and definitions (the reference checks it
 * in `check_duplication`): a struct or function is named by one handle only, every definition is of
 * this module, each handle is defined at most once, and each handle of this module is defined
 * (UNIMPLEMENTED_HANDLE).
 *
 * Why type safety needs it: types are compared by struct handle index, and calls are typed by the
 * handle they name, while the runtime resolves both by name. Two handles for one struct, two
 * definitions of one struct (packed through one, unpacked through the other), a definition of another
 * module's struct, or a second handle for one of this module's functions with another signature would
 * each let a value of one type be used as another — `u64` as `Coin<AptosCoin>`.
 */
import type { CompiledModule } from "../binary/CompiledModule.js"
import { moduleIdOf } from "./dependencies.js"
import type { VerifyFailure } from "./VerifyFailure.js"

const refusal = (status: VerifyFailure["status"], message: string): VerifyFailure => ({ status, message })

export const verifyHandles = (m: CompiledModule): VerifyFailure | undefined => {
  // A module's identity is its address and name, whatever handle index names it.
  const moduleKeys = m.moduleHandles.map((_, i) => moduleIdOf(m, i))
  const selfKey = moduleKeys[m.selfModuleHandleIndex]

  const structKeys = new Set<string>()
  for (const h of m.structHandles) {
    const key = `${moduleKeys[h.module]}::${m.identifiers[h.name]}`
    if (structKeys.has(key)) return refusal("DUPLICATE_ELEMENT", `two struct handles name ${key}`)
    structKeys.add(key)
  }
  const functionKeys = new Set<string>()
  for (const h of m.functionHandles) {
    const key = `${moduleKeys[h.module]}::${m.identifiers[h.name]}`
    if (functionKeys.has(key)) return refusal("DUPLICATE_ELEMENT", `two function handles name ${key}`)
    functionKeys.add(key)
  }

  const definedStructs = new Set<number>()
  for (const d of m.structDefs) {
    const h = m.structHandles[d.structHandle]!
    if (moduleKeys[h.module] !== selfKey)
      return refusal("INVALID_MODULE_HANDLE", `struct definition of ${m.identifiers[h.name]}, another module's struct`)
    if (definedStructs.has(d.structHandle))
      return refusal("DUPLICATE_ELEMENT", `struct ${m.identifiers[h.name]} is defined twice`)
    definedStructs.add(d.structHandle)
  }
  const definedFunctions = new Set<number>()
  for (const d of m.functionDefs) {
    const h = m.functionHandles[d.function]!
    if (moduleKeys[h.module] !== selfKey)
      return refusal("INVALID_MODULE_HANDLE", `definition of ${m.identifiers[h.name]}, another module's function`)
    if (definedFunctions.has(d.function))
      return refusal("DUPLICATE_ELEMENT", `function ${m.identifiers[h.name]} is defined twice`)
    definedFunctions.add(d.function)
  }
  // A handle of this module's own struct or function that nothing defines would name nothing.
  for (const [i, h] of m.structHandles.entries())
    if (moduleKeys[h.module] === selfKey && !definedStructs.has(i))
      return refusal("UNIMPLEMENTED_HANDLE", `struct ${m.identifiers[h.name]} of this module is not defined`)
  for (const [i, h] of m.functionHandles.entries())
    if (moduleKeys[h.module] === selfKey && !definedFunctions.has(i))
      return refusal("UNIMPLEMENTED_HANDLE", `function ${m.identifiers[h.name]} of this module is not defined`)
  return undefined
}
