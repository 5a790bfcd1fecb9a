import { Closure, StructValue } from "../Value.js"
import { readString, variantIndex } from "./helpers.js"
import type { NativeFunction } from "./NativeContext.js"

/**
 * `0x1::reflect::native_resolve<F>(addr, &module, &function): Result<F, ReflectionError>`: a public
 * function found by name becomes a closure with nothing captured; otherwise `Err` names why.
 */
export const reflectNatives: Record<string, NativeFunction> = {
  native_resolve: (ctx, [ft], [addr, moduleName, fnName]) => {
    const err = (reason: string): StructValue =>
      new StructValue(variantIndex(ctx, "result", "Result", "Err"), [
        new StructValue(variantIndex(ctx, "reflect", "ReflectionError", reason), [])
      ])
    let module: string
    let name: string
    try {
      module = readString(moduleName)
      name = readString(fnName)
    } catch {
      return [err("InvalidIdentifier")]
    }
    const fn = ctx.loader.tryLoad(addr as Uint8Array, module)?.function(name)
    if (fn === undefined) return [err("FunctionNotFound")]
    if (fn.def.visibility !== 1) return [err("FunctionNotAccessible")]
    if (fn.typeParamCount > 0) return [err("FunctionNotInstantiated")]
    if (ft === undefined || ft.k !== 20 || ft.args.length !== fn.params.length) return [err("FunctionIncompatibleType")]
    return [new StructValue(variantIndex(ctx, "result", "Result", "Ok"), [new Closure(fn, [], 0n, [])])]
  }
}
