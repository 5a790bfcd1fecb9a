import { isValidIdentifier } from "../../../domain/Identifier.js"
import type { LoadedFunction } from "../Loader.js"
import type { StructValue, Value } from "../Value.js"
import { vmError } from "../VmError.js"
import { bytesOf, chargeParam, deref, readString, utf8 } from "./helpers.js"
import type { NativeContext, NativeFunction } from "./NativeContext.js"

/** `FunctionInfo { module_address, module_name: String, function_name: String }` → the loaded function. */
export const resolveFunctionInfo = (ctx: NativeContext, info: Value): LoadedFunction => {
  const f = (deref(info) as StructValue).fields
  const address = f[0] as Uint8Array
  const module = readString(f[1])
  const name = readString(f[2])
  const m = ctx.loader.tryLoad(address, module)
  const fn = m?.function(name)
  if (fn === undefined) return vmError("FUNCTION_RESOLUTION_FAILURE", `function ${module}::${name} not found`)
  return fn
}

export const functionInfoNatives: Record<string, NativeFunction> = {
  load_function_impl: (ctx, _t, [info]) => {
    resolveFunctionInfo(ctx, info)
    return []
  },
  is_identifier: (ctx, _t, [s]) => {
    const b = bytesOf(s)
    chargeParam(ctx, "aptos_framework.function_info.is_identifier.per_byte", b.length)
    try {
      return [isValidIdentifier(utf8.decode(b))]
    } catch {
      return [false]
    }
  },
  check_dispatch_type_compatibility_impl: (ctx, _t, [lhs, rhs]) => {
    const a = resolveFunctionInfo(ctx, lhs)
    const b = resolveFunctionInfo(ctx, rhs)
    return [a.params.length === b.params.length && a.returns.length === b.returns.length]
  }
}

/**
 * `0x1::dispatchable_fungible_asset`: each native calls the Move function its `FunctionInfo` names,
 * with the same type argument and the arguments before it; its results are the native's.
 */
const dispatch: NativeFunction = (ctx, tyArgs, args) => {
  const fn = resolveFunctionInfo(ctx, args[args.length - 1])
  return { _tag: "call", fn, tyArgs, args: args.slice(0, -1) }
}

export const dispatchableFungibleAssetNatives: Record<string, NativeFunction> = {
  dispatchable_withdraw: dispatch,
  dispatchable_deposit: dispatch,
  dispatchable_derived_balance: dispatch,
  dispatchable_derived_supply: dispatch
}
