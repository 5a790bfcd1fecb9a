/**
 * The reference's `try_into_vm_values` (aptos-api-behaviour §1.11): JSON arguments converted by the
 * target function's parameter types. Signer parameters are dropped first, the count must match,
 * then each argument is converted by the layout of its (instantiated) parameter type.
 *
 * Generic parameters: a `T`-typed parameter takes the layout of its type argument (the reference's
 * 1d9d3af code used a dummy `address`; instantiating is what a caller of `set<T>(x: T)` expects).
 * `0x1::object::Object<T>` parameters are an address, special-cased before any module lookup.
 */
import * as Result from "effect/Result"
import { BcsWriter } from "../../bcs/index.js"
import { addressEquals, addressFromNumber } from "../../domain/AccountAddress.js"
import type { TypeTag } from "../../domain/TypeTag.js"
import { typeTagToString } from "../../domain/TypeTagString.js"
import type { CommonTables } from "../../move/binary/CompiledModule.js"
import type { SignatureToken } from "../../move/binary/SignatureToken.js"
import { writeJsonAsBcs } from "../../move/json/jsonToBcs.js"
import type { ModuleSource } from "../../move/layout/ModuleSource.js"
import { Layouts, type MoveTypeLayout } from "../../move/layout/MoveTypeLayout.js"
import { resolveLayout } from "../../move/layout/resolveLayout.js"
import { signatureToTypeTag } from "../../move/layout/signatureToTypeTag.js"
import { isSignerParam, jsonTypeName } from "./jsonTypeName.js"
import { rustDebugJsonList } from "./rustDebugJson.js"

const ONE = addressFromNumber(1)

const isObjectTag = (t: TypeTag): boolean =>
  t._tag === "struct" &&
  addressEquals(t.struct.address, ONE) &&
  t.struct.module === "object" &&
  t.struct.name === "Object"

/** Whether a layout may change when a module is upgraded: enums may gain variants; struct fields never change. */
const hasEnum = (l: MoveTypeLayout): boolean =>
  l._tag === "enum" ||
  (l._tag === "vector" && hasEnum(l.element)) ||
  (l._tag === "struct" && l.fields.some((f) => hasEnum(f.layout)))

/**
 * Resolved layouts per signature token and type arguments. Keyed by the token object: tokens of
 * a decoded module live as long as the module (a new module version is a new object), and shared
 * primitive tokens have the same layout everywhere. Layouts containing an enum are not kept.
 */
const layoutCache = new WeakMap<SignatureToken, Map<string, MoveTypeLayout>>()
const MAX_INSTANTIATIONS_PER_TOKEN = 64

/** The layout of one parameter type, instantiated with the call's type arguments. */
export const parameterLayout = (
  unit: CommonTables,
  token: SignatureToken,
  typeArgs: ReadonlyArray<TypeTag>,
  modules: ModuleSource
): Result.Result<MoveTypeLayout, { readonly message: string }> => {
  const key = typeArgs.length === 0 ? "" : typeArgs.map(typeTagToString).join(",")
  const cached = layoutCache.get(token)?.get(key)
  if (cached !== undefined) return Result.succeed(cached)
  let tag: TypeTag
  try {
    tag = signatureToTypeTag(
      unit,
      token._tag === "Reference" || token._tag === "MutableReference" ? token.to : token,
      typeArgs
    )
  } catch (e) {
    return Result.fail({ message: (e as { message?: string }).message ?? String(e) })
  }
  const layout = isObjectTag(tag) ? Result.succeed(Layouts.address) : resolveLayout(modules, tag)
  if (Result.isSuccess(layout) && !hasEnum(layout.success)) {
    let m = layoutCache.get(token)
    if (m === undefined) layoutCache.set(token, (m = new Map()))
    if (m.size < MAX_INSTANTIATIONS_PER_TOKEN) m.set(key, layout.success)
  }
  return layout
}

/** The parameters that take an argument, per signature (a decoded module's signatures never change). */
const nonSignerCache = new WeakMap<ReadonlyArray<SignatureToken>, ReadonlyArray<SignatureToken>>()
const nonSignerParams = (params: ReadonlyArray<SignatureToken>): ReadonlyArray<SignatureToken> => {
  let types = nonSignerCache.get(params)
  if (types === undefined) nonSignerCache.set(params, (types = params.filter((p) => !isSignerParam(p))))
  return types
}

/**
 * Converts `args` by the non-signer parameters in `params`; the error message is the reference's
 * (count mismatch, or "parse arguments[i] failed, expect <json type>, caused by error: …").
 */
export const convertArguments = (
  unit: CommonTables,
  params: ReadonlyArray<SignatureToken>,
  typeArgs: ReadonlyArray<TypeTag>,
  args: ReadonlyArray<unknown>,
  modules: ModuleSource
): Result.Result<ReadonlyArray<Uint8Array>, string> => {
  const types = nonSignerParams(params)
  if (types.length !== args.length)
    return Result.fail(
      `expected ${types.length} arguments [${types.map(jsonTypeName).join(", ")}], but got ${args.length} (${rustDebugJsonList(args)})`
    )
  // One writer for all arguments (their total size is bounded by the conversion limit too).
  const w = new BcsWriter(256)
  const ends: number[] = new Array(types.length)
  for (let i = 0; i < types.length; i++) {
    const t = types[i]!
    const layout = parameterLayout(unit, t, typeArgs, modules)
    const written: Result.Result<void, { readonly message: string }> = Result.isSuccess(layout)
      ? writeJsonAsBcs(w, layout.success, args[i])
      : Result.fail(layout.failure)
    if (Result.isFailure(written))
      return Result.fail(
        `parse arguments[${i}] failed, expect ${jsonTypeName(t)}, caused by error: ${written.failure.message}`
      )
    ends[i] = w.length
  }
  const all = w.toBytes()
  const out: Uint8Array[] = new Array(types.length)
  for (let i = 0; i < types.length; i++) out[i] = all.subarray(i === 0 ? 0 : ends[i - 1], ends[i])
  return Result.succeed(out)
}
