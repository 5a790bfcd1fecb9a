import * as Result from "effect/Result"
import { type AccountAddress, parseAddress } from "../../domain/AccountAddress.js"
import { isValidIdentifier } from "../../domain/Identifier.js"
import type { ModuleId } from "../../domain/TypeTag.js"

/** One function (`address::module::function_name`), as the reference's `api.view_filter` names it. */
export interface ViewFunctionId {
  readonly address: AccountAddress
  readonly module: string
  readonly functionName: string
}

/**
 * `api.view_filter`: only the listed functions (`allowlist`) or all but them (`blocklist`, empty
 * by default, so everything is allowed). A rejected view is 403 `invalid_input` without ledger
 * headers (aptos-api-behaviour §7.3).
 */
export type ViewFilter =
  | { readonly _tag: "Allowlist"; readonly functions: ReadonlyArray<ViewFunctionId> }
  | { readonly _tag: "Blocklist"; readonly functions: ReadonlyArray<ViewFunctionId> }

const sameAddress = (a: AccountAddress, b: AccountAddress): boolean => {
  for (let i = 0; i < 32; i++) if (a[i] !== b[i]) return false
  return true
}

const listed = (functions: ReadonlyArray<ViewFunctionId>, module: ModuleId, fn: string): boolean =>
  functions.some((f) => f.functionName === fn && f.module === module.name && sameAddress(f.address, module.address))

export const viewAllowed = (filter: ViewFilter | undefined, module: ModuleId, fn: string): boolean =>
  filter === undefined ||
  (filter._tag === "Allowlist" ? listed(filter.functions, module, fn) : !listed(filter.functions, module, fn))

/**
 * The filter from a config file, in the reference's shape: `{"allowlist": [...]}` or
 * `{"blocklist": [...]}`, each entry `{"address": "0x1", "module": "coin", "function_name": "balance"}`.
 */
export const parseViewFilterJson = (u: unknown): Result.Result<ViewFilter, string> => {
  if (typeof u !== "object" || u === null || Array.isArray(u))
    return Result.fail(`viewFilter must be {"allowlist": [...]} or {"blocklist": [...]}`)
  const keys = Object.keys(u)
  const kind = keys[0]
  if (keys.length !== 1 || (kind !== "allowlist" && kind !== "blocklist"))
    return Result.fail(`viewFilter must be {"allowlist": [...]} or {"blocklist": [...]}`)
  const list = (u as Record<string, unknown>)[kind]
  if (!Array.isArray(list)) return Result.fail(`viewFilter.${kind} must be an array`)
  const functions: ViewFunctionId[] = []
  for (const [i, e] of list.entries()) {
    const where = `viewFilter.${kind}[${i}]`
    if (typeof e !== "object" || e === null) return Result.fail(`${where} must be an object`)
    const { address, module, function_name } = e as Record<string, unknown>
    if (typeof address !== "string") return Result.fail(`${where}.address must be a string`)
    const parsed = parseAddress(address)
    if (Result.isFailure(parsed)) return Result.fail(`${where}.address: ${parsed.failure.message}`)
    if (typeof module !== "string" || !isValidIdentifier(module))
      return Result.fail(`${where}.module must be a Move identifier`)
    if (typeof function_name !== "string" || !isValidIdentifier(function_name))
      return Result.fail(`${where}.function_name must be a Move identifier`)
    functions.push({ address: parsed.success, module, functionName: function_name })
  }
  return Result.succeed({ _tag: kind === "allowlist" ? "Allowlist" : "Blocklist", functions })
}
