import * as Result from "effect/Result"
import { toHex0x } from "../../bcs/index.js"
import type { StructTag, TypeTag } from "../../domain/TypeTag.js"
import { structTagToString } from "../../domain/TypeTagString.js"
import { bcsToJson, type JsonValue } from "../../move/json/bcsToJson.js"
import type { ModuleSource } from "../../move/layout/ModuleSource.js"
import { resolveLayout } from "../../move/layout/resolveLayout.js"

export type { JsonValue } from "../../move/json/bcsToJson.js"

/** A JSON object as the renderers build it: keys in the order they are written out. */
export type JsonObject = { [key: string]: JsonValue }

/**
 * A Move value's JSON (aptos-api-behaviour.md §1.10) from its BCS bytes and type, the layout
 * resolved through `modules` (the state the value is read at), with the one converter the view
 * endpoint uses. An error says why (a missing module, bytes that are not a value of the type).
 */
export const moveValueJson = (
  modules: ModuleSource,
  type: TypeTag,
  bytes: Uint8Array
): Result.Result<JsonValue, string> => {
  const layout = resolveLayout(modules, type)
  if (Result.isFailure(layout)) return Result.fail(layout.failure.message)
  return Result.mapError(bcsToJson(layout.success, bytes), (e) => e.message)
}

/** A resource as the API shows it: `{"type": "0x1::m::S<…>", "data": {…}}`. */
export const resourceJson = (
  modules: ModuleSource,
  struct: StructTag,
  bytes: Uint8Array
): Result.Result<JsonObject, string> =>
  Result.map(moveValueJson(modules, { _tag: "struct", struct }, bytes), (data) => ({
    type: structTagToString(struct),
    data
  }))

/** `0x` + lowercase hex (HexEncodedBytes). */
export const hexJson = (bytes: Uint8Array): string => toHex0x(bytes)
