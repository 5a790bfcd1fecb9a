/**
 * Layouts of the framework structs the VM builds values of itself (`PrologueArgs`, `EpilogueArgs`),
 * resolved from the modules in state and kept per module object: the loader hands out one
 * `CompiledModule` per stored module version, so a framework upgrade is picked up and an unchanged
 * framework costs one lookup per transaction.
 */
import * as Result from "effect/Result"
import { addressFromNumber } from "../domain/AccountAddress.js"
import type { CompiledModule } from "../move/binary/CompiledModule.js"
import type { ModuleSource } from "../move/layout/ModuleSource.js"
import type { MoveTypeLayout } from "../move/layout/MoveTypeLayout.js"
import { resolveLayout } from "../move/layout/resolveLayout.js"

const ONE = addressFromNumber(1)

const cache = new WeakMap<CompiledModule, Map<string, MoveTypeLayout | string>>()

/**
 * The layout of `0x1::<module>::<name>` (a non-generic struct or enum), or a message saying why
 * there is none (module or struct missing, or a type the resolver refuses).
 */
export const frameworkLayout = (source: ModuleSource, module: string, name: string): MoveTypeLayout | string => {
  const cm = source(ONE, module)
  if (cm === undefined) return `module 0x1::${module} not found`
  let byName = cache.get(cm)
  if (byName === undefined) {
    byName = new Map()
    cache.set(cm, byName)
  }
  let hit = byName.get(name)
  if (hit === undefined) {
    const r = resolveLayout(source, { _tag: "struct", struct: { address: ONE, module, name, typeArgs: [] } })
    hit = Result.isSuccess(r) ? r.success : r.failure.message
    byName.set(name, hit)
  }
  return hit
}
