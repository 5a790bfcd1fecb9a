import { isValidIdentifier } from "../../../domain/Identifier.js"
import type { LoadedFunction } from "../Loader.js"
import { type Type, typeEquals } from "../Type.js"
import type { StructValue, Value } from "../Value.js"
import { vmError } from "../VmError.js"
import { bytesOf, chargeParam, deref, readString, utf8 } from "./helpers.js"
import { type NativeContext, type NativeFunction, nativeAbort } from "./NativeContext.js"

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
  /**
   * `check_dispatch_type_compatibility_impl(framework_function, dispatch_target)`, as the
   * reference's native: true when the target (rhs) takes the framework dispatcher's (lhs) parameters
   * minus its trailing `&FunctionInfo`, returns the same types, has the same type-parameter
   * abilities, is public (not private or friend) and lives in another module. A name that is not
   * an identifier aborts 1; a function that cannot be loaded, or a dispatcher without parameters,
   * aborts 2.
   */
  check_dispatch_type_compatibility_impl: (ctx, _t, [lhs, rhs]) => {
    const target = dispatchFunction(ctx, rhs)
    const dispatcher = dispatchFunction(ctx, lhs)
    const lp = dispatcher.params
    if (lp.length === 0) return nativeAbort(ctx, 2n)
    return [
      sameAbilities(typeParamAbilities(target), typeParamAbilities(dispatcher)) &&
        sameTypes(target.returns, dispatcher.returns) &&
        sameTypes(target.params, lp.slice(0, lp.length - 1)) &&
        target.def.visibility === PUBLIC &&
        target.module !== dispatcher.module
    ]
  }
}

/** Function visibility byte of a public function. */
const PUBLIC = 1

const sameTypes = (a: ReadonlyArray<Type>, b: ReadonlyArray<Type>): boolean =>
  a.length === b.length && a.every((t, i) => typeEquals(t, b[i]!))

const sameAbilities = (a: ReadonlyArray<number>, b: ReadonlyArray<number>): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i])

const typeParamAbilities = (f: LoadedFunction): ReadonlyArray<number> =>
  f.module.cm.functionHandles[f.def.function]!.typeParameters

/** An identifier field of a `FunctionInfo` (`&String`): abort 1 when it is not a valid identifier. */
const identifierField = (ctx: NativeContext, v: Value): string => {
  let s: string
  try {
    s = readString(v)
  } catch {
    return nativeAbort(ctx, 1n)
  }
  return isValidIdentifier(s) ? s : nativeAbort(ctx, 1n)
}

/** The function a `FunctionInfo` names for the compatibility check; abort 2 when it cannot be loaded. */
const dispatchFunction = (ctx: NativeContext, info: Value): LoadedFunction => {
  const f = (deref(info) as StructValue).fields
  const module = identifierField(ctx, f[1]!)
  const name = identifierField(ctx, f[2]!)
  const fn = ctx.loader.tryLoad(f[0] as Uint8Array, module)?.function(name)
  return fn ?? nativeAbort(ctx, 2n)
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
