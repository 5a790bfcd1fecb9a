import * as Result from "effect/Result"
import { BcsError, BcsReader } from "../../bcs/index.js"
import { parseAddress } from "../../domain/AccountAddress.js"
import { isValidIdentifier } from "../../domain/Identifier.js"
import type { ModuleId, TypeTag } from "../../domain/TypeTag.js"
import { readIdentifier, readModuleId, readTypeTag } from "../../domain/TypeTagCodec.js"
import { parseTypeTag } from "../../domain/TypeTagString.js"
import { quoteString } from "../../domain/boundedText.js"

/** A view call with its arguments still in JSON (converted later, by the function's parameter types). */
export interface JsonViewCall {
  readonly _tag: "Json"
  readonly module: ModuleId
  readonly function: string
  readonly tyArgs: ReadonlyArray<TypeTag>
  readonly args: ReadonlyArray<unknown>
}

/** A view call from a BCS body: arguments already BCS. */
export interface BcsViewCall {
  readonly _tag: "Bcs"
  readonly module: ModuleId
  readonly function: string
  readonly tyArgs: ReadonlyArray<TypeTag>
  readonly args: ReadonlyArray<Uint8Array>
}

/** Why a body was refused: `parse` = malformed JSON shape (web_framework_error), `input` = invalid_input. */
export interface ViewRequestError {
  readonly kind: "parse" | "input"
  readonly message: string
}

const fail = (kind: ViewRequestError["kind"], message: string): Result.Result<never, ViewRequestError> =>
  Result.fail({ kind, message })

/** `"0x1::coin::balance"` → module id and function name (the reference's `EntryFunctionId`). */
export const parseFunctionId = (s: string): Result.Result<{ module: ModuleId; function: string }, string> => {
  const parts = s.split("::")
  if (parts.length !== 3) return Result.fail(`invalid entry function id ${quoteString(s)}`)
  const address = parseAddress(parts[0]!.trim())
  if (Result.isFailure(address)) return Result.fail(address.failure.message)
  const [, module, fn] = parts as [string, string, string]
  if (!isValidIdentifier(module)) return Result.fail(`invalid module name ${quoteString(module)}`)
  if (!isValidIdentifier(fn)) return Result.fail(`invalid function name ${quoteString(fn)}`)
  return Result.succeed({ module: { address: address.success, name: module }, function: fn })
}

/** The JSON body `{function, type_arguments, arguments}` (all three required). */
export const parseJsonViewRequest = (body: unknown): Result.Result<JsonViewCall, ViewRequestError> => {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return fail("parse", "Parse error: expected a JSON object with function, type_arguments and arguments")
  const b = body as Record<string, unknown>
  if (typeof b.function !== "string") return fail("parse", "Parse error: missing field `function`")
  if (!Array.isArray(b.type_arguments)) return fail("parse", "Parse error: missing field `type_arguments`")
  if (!Array.isArray(b.arguments)) return fail("parse", "Parse error: missing field `arguments`")
  const id = parseFunctionId(b.function)
  if (Result.isFailure(id)) return fail("parse", `Parse error: ${id.failure}`)
  const tyArgs: TypeTag[] = []
  for (const t of b.type_arguments) {
    if (typeof t !== "string") return fail("parse", "Parse error: type arguments must be strings")
    const parsed = parseTypeTag(t)
    if (Result.isFailure(parsed)) return fail("parse", `Parse error: ${parsed.failure.message}`)
    tyArgs.push(parsed.success)
  }
  return Result.succeed({
    _tag: "Json",
    module: id.success.module,
    function: id.success.function,
    tyArgs,
    args: b.arguments
  })
}

/** Type-tag nesting allowed in a BCS body (`MAX_RECURSIVE_TYPES_ALLOWED`). */
export const BCS_VIEW_DEPTH = 8

/** BCS `ViewFunction { module: ModuleId, function: Identifier, ty_args: Vec<TypeTag>, args: Vec<Vec<u8>> }`. */
export const parseBcsViewRequest = (body: Uint8Array): Result.Result<BcsViewCall, ViewRequestError> => {
  try {
    const r = new BcsReader(body, { maxLength: 1 << 20, maxDepth: BCS_VIEW_DEPTH })
    const module = readModuleId(r)
    const fn = readIdentifier(r)
    const n = r.length(1)
    const tyArgs: TypeTag[] = []
    for (let i = 0; i < n; i++) tyArgs.push(readTypeTag(r))
    const m = r.length(1)
    const args: Uint8Array[] = []
    for (let i = 0; i < m; i++) args.push(r.bytesWithLength())
    r.expectEnd()
    return Result.succeed({ _tag: "Bcs", module, function: fn, tyArgs, args })
  } catch (e) {
    const why = e instanceof BcsError ? e.message : String(e)
    return fail("input", `Failed to deserialize input into ViewRequest: ${why}`)
  }
}
