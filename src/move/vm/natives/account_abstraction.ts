import { resolveFunctionInfo } from "./function_info.js"
import type { NativeFunction } from "./NativeContext.js"

/**
 * `account_abstraction::dispatchable_authenticate(account: signer, signing_data:
 * AbstractionAuthData, function: &FunctionInfo): signer` calls the authentication function the
 * `FunctionInfo` names with the first two arguments; its result (the signer) is the native's.
 */
export const accountAbstractionNatives: Record<string, NativeFunction> = {
  dispatchable_authenticate: (ctx, _t, [account, data, info]) => ({
    _tag: "call",
    fn: resolveFunctionInfo(ctx, info),
    tyArgs: [],
    args: [account, data]
  })
}
