/**
 * Move identifiers (module, struct, function names). The rule is the reference's `is_valid`: an
 * ASCII letter followed by letters, digits, `_` or `$`; or `_` / `$` followed by at least one more
 * such character. `$` is allowed since bytecode v9 (compiler-generated names for lambdas).
 * `<SELF>` is the one legacy exception (old compiled scripts).
 */
import * as Result from "effect/Result"
import { boundedPrefix } from "./boundedText.js"

const isIdentChar = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36

export const isValidIdentifier = (s: string): boolean => {
  const n = s.length
  if (n === 0) return false
  if (s === "<SELF>") return true
  const c0 = s.charCodeAt(0)
  const letter = (c0 >= 97 && c0 <= 122) || (c0 >= 65 && c0 <= 90)
  if (!letter) {
    if ((c0 !== 95 && c0 !== 36) || n < 2) return false
  }
  for (let i = 1; i < n; i++) if (!isIdentChar(s.charCodeAt(i))) return false
  return true
}

export class IdentifierError {
  readonly _tag = "IdentifierError"
  constructor(readonly message: string) {}
}

/**
 * Validation for identifiers given by API users: a valid Move identifier, and (as the reference's
 * `verify_*_identifier`) never containing `::`.
 */
export const parseIdentifier = (s: string): Result.Result<string, IdentifierError> => {
  if (s.includes("::")) return Result.fail(new IdentifierError(`Identifier '${boundedPrefix(s)}' contains '::'`))
  if (!isValidIdentifier(s)) return Result.fail(new IdentifierError(`Invalid identifier '${boundedPrefix(s)}'`))
  return Result.succeed(s)
}
