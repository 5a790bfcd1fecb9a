import * as Result from "effect/Result"
import { type ApiError, ApiErrors } from "../domain/ApiError.js"
import { boundedPrefix } from "../domain/boundedText.js"
import { decodeSegment, isIdentifier, isStructTagText } from "./Params.js"

/**
 * Parsers for the read endpoints' path segments and queries, beside `Params.ts` (same rules: the
 * input's length is checked first, no recursion, 400 `web_framework_error` in the reference's
 * wording, client text quoted by a bounded prefix).
 */

const U64_MAX = 0xffff_ffff_ffff_ffffn

/** A u64 path segment (`txn_version`, `block_height`, `version`, `creation_number`). */
export const parseU64Path = (name: string, s: string): Result.Result<bigint, ApiError> => {
  if (s.length > 0 && s.length <= 20 && /^[0-9]+$/.test(s)) {
    const v = BigInt(s)
    if (v <= U64_MAX) return Result.succeed(v)
  }
  return Result.fail(
    ApiErrors.webFramework(
      400,
      `failed to parse path \`${name}\`: failed to parse "string(U64)": Parsing u64 string "${boundedPrefix(s, 100)}" failed, caused by error: invalid digit found in string`
    )
  )
}

/** A boolean query (`with_transactions`): `true` or `false`; absent = false. */
export const parseBoolQuery = (name: string, s: string | undefined): Result.Result<boolean, ApiError> => {
  if (s === undefined || s === "false") return Result.succeed(false)
  if (s === "true") return Result.succeed(true)
  return Result.fail(
    ApiErrors.webFramework(
      400,
      `failed to parse query \`${name}\`: failed to parse "boolean": invalid value ${JSON.stringify(boundedPrefix(s, 100))}`
    )
  )
}

/**
 * A struct tag path segment (`resource_type`, `event_handle`), percent-decoded: its shape is checked
 * here (bounded length and nesting, the allowed characters); the node parses it, spaces and all.
 */
export const parseStructTagParam = (name: string, raw: string): Result.Result<string, ApiError> =>
  Result.flatMap(
    Result.map(decodeSegment(name, raw), (s) => s.trim()),
    (s) =>
      isStructTagText(s)
        ? Result.succeed(s)
        : Result.fail(
            ApiErrors.webFramework(
              400,
              `failed to parse path \`${name}\`: failed to parse "string(MoveStructTag)": Invalid struct tag '${boundedPrefix(s, 200)}'`
            )
          )
  )

/** A Move identifier path segment (`field_name`). */
export const parseFieldNameParam = (name: string, raw: string): Result.Result<string, ApiError> =>
  Result.flatMap(decodeSegment(name, raw), (s) =>
    isIdentifier(s)
      ? Result.succeed(s)
      : Result.fail(
          ApiErrors.webFramework(
            400,
            `failed to parse path \`${name}\`: failed to parse "string(IdentifierWrapper)": Invalid identifier '${boundedPrefix(s, 200)}'`
          )
        )
  )

/** The resources/modules cursor (`start`): opaque hex here, checked by the node; bounded in length. */
export const parseCursorQuery = (s: string | undefined): Result.Result<string | undefined, ApiError> =>
  s === undefined || s.length <= 8192
    ? Result.succeed(s)
    : Result.fail(ApiErrors.webFramework(400, "failed to parse query `start`: the cursor is too long"))

/** `raw_item`'s hex key (with or without 0x). */
export const parseHexBody = (name: string, s: string): Result.Result<Uint8Array, ApiError> => {
  const digits = s.startsWith("0x") || s.startsWith("0X") ? s.slice(2) : s
  if (digits.length % 2 === 0 && /^[0-9a-fA-F]*$/.test(digits))
    return Result.succeed(new Uint8Array(Buffer.from(digits, "hex")))
  return Result.fail(
    ApiErrors.webFramework(
      400,
      `parse request payload error: invalid hex in \`${name}\`: ${JSON.stringify(boundedPrefix(s, 100))}`
    )
  )
}
