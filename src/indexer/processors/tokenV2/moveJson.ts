/**
 * The readers of the API's Move JSON the token processors use: the shared ones (`../moveValues.ts`,
 * `../rows.ts`) under short names, and an address reader that takes a plain address or an
 * `Object<T>` (`{inner}`), as token resources hold both. Each answers undefined for a value of
 * another shape, so a processor skips what it cannot read instead of throwing.
 */
import type { JsonValue } from "../input/IndexerTransaction.js"
import { field, uintOf } from "../moveValues.js"
import { standardAddress } from "../rows.js"

export { asRecord, field } from "../moveValues.js"
export { truncate } from "../rows.js"

export const text = (v: JsonValue | undefined): string | undefined => (typeof v === "string" ? v : undefined)

export const bool = (v: JsonValue | undefined): boolean | undefined => (typeof v === "boolean" ? v : undefined)

/** A u64/u128/u256 as the API writes it (a decimal string; u8–u32 as numbers). */
export const unsigned = uintOf

/** An address (`"0x1"`) or an `Object<T>`'s `{inner}`, long form. */
export const address = (v: JsonValue | undefined): string | undefined => {
  const s = text(field(v, "inner") ?? v)
  return s === undefined ? undefined : standardAddress(s)
}

/** The reference truncates names to 128 and URIs to 512 characters (`truncate_str`). */
export const NAME_LENGTH = 128
export const URI_LENGTH = 512
