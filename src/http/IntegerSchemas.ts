/**
 * The API's integer schemas, as the reference's OpenAPI document names them: u8/u16/u32 (and u64
 * where the reference sends a JSON number, like the gas estimates) are JSON integers with a
 * `format`; u64 and wider in general are decimal strings (`U64`, a named component, as the
 * reference's `#/components/schemas/U64`). The types stay `number` / `string`: these only say
 * what the document says. OpenApiDoc.ts removes the ±2^53 bounds Effect adds to every `Int`.
 */
import * as Schema from "effect/Schema"

const jsonInteger = (format: "uint8" | "uint16" | "uint32" | "uint64") =>
  Schema.Int.annotate({ format } as Schema.Annotations.Filter)

/** A u8 as a JSON number (`chain_id`). */
export const U8Json = jsonInteger("uint8")
/** A u16 as a JSON number. */
export const U16Json = jsonInteger("uint16")
/** A u32 as a JSON number. */
export const U32Json = jsonInteger("uint32")
/** A u64 sent as a JSON number (the gas estimates; exact below 2^53). */
export const U64Json = jsonInteger("uint64")

/** A u64 as a decimal string, the reference's `U64` component. */
export const U64String = Schema.String.annotate({
  identifier: "U64",
  format: "uint64",
  description:
    "A 64-bit unsigned integer as a decimal string (JSON numbers cannot hold every u64 exactly in JavaScript and other languages)."
} as Schema.Annotations.Filter)
