import * as Result from "effect/Result"
import { type AccountAddress, parseAddress } from "../domain/AccountAddress.js"
import { type ApiError, ApiErrors } from "../domain/ApiError.js"
import type { AssetType } from "../node/Balances.js"
import { boundedPrefix } from "../domain/boundedText.js"

/**
 * Parsers for path segments and query values. Input is hostile: every parser bounds its work by
 * the input's length (checked first), never recurses, and answers 400 `web_framework_error` in
 * the reference's wording instead of throwing.
 */

const U64_MAX = 0xffff_ffff_ffff_ffffn
const HEX_ADDRESS = /^(?:0[xX])?[0-9a-fA-F]{1,64}$/
const IDENTIFIER = /^(?:[A-Za-z][A-Za-z0-9_]*|_[A-Za-z0-9_]+)$/
const MAX_IDENTIFIER_LENGTH = 255
/** Bounds a struct tag's text and nesting before anything else looks at it. */
const MAX_STRUCT_TAG_LENGTH = 4096
const MAX_TYPE_DEPTH = 8

const pathError = (name: string, type: string, detail: string): ApiError =>
  ApiErrors.webFramework(400, `failed to parse path \`${name}\`: failed to parse "${type}": ${detail}`)

const queryError = (name: string, type: string, detail: string): ApiError =>
  ApiErrors.webFramework(400, `failed to parse query \`${name}\`: failed to parse "${type}": ${detail}`)

/** Decodes one percent-encoded path segment; malformed escapes are a 400, not an exception. */
export const decodeSegment = (name: string, raw: string): Result.Result<string, ApiError> => {
  if (!raw.includes("%")) return Result.succeed(raw)
  try {
    return Result.succeed(decodeURIComponent(raw))
  } catch {
    return Result.fail(pathError(name, "string", "invalid percent-encoding"))
  }
}

const addressOf = (s: string): AccountAddress | undefined => {
  // The shape is checked here first: `parseAddress` alone would accept "0x0x12".
  if (!HEX_ADDRESS.test(s)) return undefined
  const r = parseAddress(s)
  return Result.isSuccess(r) ? r.success : undefined
}

/** Relaxed address: with or without `0x`, 1 to 64 hex digits, either case. */
export const parseAddressParam = (name: string, s: string): Result.Result<AccountAddress, ApiError> => {
  const a = addressOf(s)
  if (a !== undefined) return Result.succeed(a)
  const detail =
    s === "" || s === "0x" || s === "0X"
      ? "Hex string is too short"
      : s.replace(/^0[xX]/, "").length > 64
        ? "Hex string is too long"
        : "Hex characters are invalid"
  return Result.fail(pathError(name, "string(Address)", `Invalid account address: ${detail}`))
}

export const isIdentifier = (s: string): boolean => s.length <= MAX_IDENTIFIER_LENGTH && IDENTIFIER.test(s)

/** A Move identifier (module names). */
export const parseIdentifierParam = (name: string, s: string): Result.Result<string, ApiError> =>
  isIdentifier(s)
    ? Result.succeed(s)
    : Result.fail(pathError(name, "string(IdentifierWrapper)", `Invalid identifier '${s.slice(0, 300)}'`))

/** `[A-Za-z0-9_:, &]`: what may appear between a struct tag's angle brackets besides brackets. */
const isTypeArgumentChar = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 58) || c === 95 || c === 44 || c === 32 || c === 38

/**
 * Checks the shape of a struct tag `ADDR::module::Name<T, …>` without building it: one pass over
 * the characters with an explicit depth counter. The node parses it fully; this only keeps
 * garbage and unbounded input out.
 */
export const isStructTagText = (s: string): boolean => {
  if (s.length === 0 || s.length > MAX_STRUCT_TAG_LENGTH) return false
  const lt = s.indexOf("<")
  const head = lt < 0 ? s : s.slice(0, lt)
  const parts = head.trim().split("::")
  // The address is only checked for shape here (every HEX_ADDRESS text parses); the node parses it.
  if (parts.length !== 3 || !HEX_ADDRESS.test(parts[0]!) || !isIdentifier(parts[1]!) || !isIdentifier(parts[2]!))
    return false
  if (lt < 0) return true
  if (!s.endsWith(">")) return false
  let depth = 0
  for (let i = lt; i < s.length; i++) {
    const c = s[i]!
    if (c === "<") {
      if (++depth > MAX_TYPE_DEPTH) return false
    } else if (c === ">") {
      if (--depth < 0) return false
      if (depth === 0 && i !== s.length - 1) return false
    } else if (!isTypeArgumentChar(s.charCodeAt(i))) return false
  }
  return depth === 0
}

/** `asset_type`: an address first (a fungible-asset metadata object), else a coin struct tag. */
export const parseAssetTypeParam = (s: string): Result.Result<AssetType, ApiError> => {
  const a = addressOf(s)
  if (a !== undefined) return Result.succeed({ _tag: "FungibleAsset", metadata: a })
  if (isStructTagText(s)) return Result.succeed({ _tag: "Coin", structTag: s.trim() })
  return Result.fail(
    pathError("asset_type", "string(AssetType)", `Invalid asset type: neither an address nor a struct tag`)
  )
}

const parseUnsigned = (name: string, type: string, max: bigint, s: string | undefined) => {
  if (s === undefined) return Result.succeed(undefined)
  if (s.length > 0 && s.length <= 40 && /^[0-9]+$/.test(s)) {
    const v = BigInt(s)
    if (v <= max) return Result.succeed(v)
    return Result.fail(
      queryError(
        name,
        type,
        `Parsing ${type} string "${boundedPrefix(s, 100)}" failed, caused by error: number too large`
      )
    )
  }
  return Result.fail(
    queryError(
      name,
      type,
      `Parsing ${type} string "${s.slice(0, 100)}" failed, caused by error: invalid digit found in string`
    )
  )
}

/** A u64 query value (`ledger_version`, `start_version`, `end_version`); absent = undefined. */
export const parseU64Query = (name: string, s: string | undefined): Result.Result<bigint | undefined, ApiError> =>
  parseUnsigned(name, "u64", U64_MAX, s)

/** A u16 query value (`limit`). */
export const parseU16Query = (name: string, s: string | undefined): Result.Result<number | undefined, ApiError> =>
  Result.map(parseUnsigned(name, "u16", 65535n, s), (v) => (v === undefined ? undefined : Number(v)))
