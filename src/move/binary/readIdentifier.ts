import { quoteString } from "../../domain/boundedText.js"
import type { BinaryCursor } from "./BinaryCursor.js"
import { fail } from "./BinaryError.js"

const isAlpha = (b: number): boolean => (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a)
const isDigit = (b: number): boolean => b >= 0x30 && b <= 0x39
const UNDERSCORE = 0x5f
const DOLLAR = 0x24

const allDigits = (raw: Uint8Array, from: number): boolean => {
  for (let i = from; i < raw.length; i++) if (!isDigit(raw[i]!)) return false
  return true
}

/**
 * A Move identifier: `[A-Za-z][A-Za-z0-9_]*` or `_` followed by at least one such character, or
 * the special `<SELF>` and `<SELF>_<digits>` (names compiler v2 gives a script's own module and its
 * lifted functions: the SDK's permission-delegation script has `<SELF>_0`; the reference codes both
 * as exceptions). From v9 `$` may also appear after the first character (compiler-generated names
 * such as `pack$Result$Ok`). Identifiers are ASCII, so no UTF-8 decoding is needed.
 */
export const readIdentifier = (c: BinaryCursor, maxSize: number): string => {
  const at = c.offset
  const size = c.uleb(maxSize, "identifier size")
  const raw = c.fixed(size)
  // Not `fromCharCode(...raw)`: legacy identifiers may be 65,535 bytes, too many call arguments.
  let text = ""
  for (let i = 0; i < raw.length; i += 4096)
    text += String.fromCharCode.apply(null, raw.subarray(i, i + 4096) as unknown as number[])
  if (text === "<SELF>" || (size > 7 && text.startsWith("<SELF>_") && allDigits(raw, 7))) return text
  const first = raw[0]
  let ok = size > 0 && (isAlpha(first!) || (first === UNDERSCORE && size > 1))
  const dollar = c.version >= 9
  for (let i = 1; ok && i < size; i++) {
    const b = raw[i]!
    ok = isAlpha(b) || isDigit(b) || b === UNDERSCORE || (dollar && b === DOLLAR)
  }
  if (!ok) fail("Malformed", `invalid identifier ${quoteString(text)}`, at)
  return text
}
