/**
 * Effect Schemas for the API's scalar encodings (aptos-api-behaviour §1.9):
 * - U64/U128/U256 and I64/I128/I256: decimal JSON strings ↔ bigint, range-checked; a JSON number is
 *   rejected, as the reference does ("invalid type: integer, expected a string"). Like Rust's
 *   `str::parse`, an optional leading `+` is accepted (and `-` for the signed types).
 * - U8/U16/U32 (and I8/I16/I32): JSON numbers, integers in range.
 * - Address: relaxed parse (with or without 0x, 1–64 hex digits) ↔ short form `0x…`.
 * - HexBytes: hex with or without 0x, either case ↔ `0x` + lowercase hex.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as SchemaGetter from "effect/SchemaGetter"
import * as SchemaIssue from "effect/SchemaIssue"
import { fromHex, toHex0x } from "../bcs/index.js"
import { type AccountAddress, addressToShortString, parseAddress } from "./AccountAddress.js"

const invalid = (input: unknown, message: string) => new SchemaIssue.InvalidValue({ message }, input)

const integerString = (identifier: string, min: bigint, max: bigint, signed: boolean) => {
  const pattern = signed ? /^[+-]?\d+$/ : /^\+?\d+$/
  return Schema.String.pipe(
    Schema.decodeTo(Schema.BigInt.check(Schema.isBetweenBigInt({ minimum: min, maximum: max })), {
      decode: SchemaGetter.transformEffect((s: string) =>
        pattern.test(s) && s.length <= 100
          ? Effect.succeed(BigInt(s))
          : Effect.fail(invalid(s, `invalid digit found in string: expected a decimal ${identifier}`))
      ),
      encode: SchemaGetter.transform((n: bigint) => n.toString())
    })
  ).annotate({ identifier })
}

const unsigned = (bits: number, identifier: string) => integerString(identifier, 0n, (1n << BigInt(bits)) - 1n, false)
const signed = (bits: number, identifier: string) =>
  integerString(identifier, -(1n << BigInt(bits - 1)), (1n << BigInt(bits - 1)) - 1n, true)

export const U64 = unsigned(64, "U64")
export const U128 = unsigned(128, "U128")
export const U256 = unsigned(256, "U256")
export const I64 = signed(64, "I64")
export const I128 = signed(128, "I128")
export const I256 = signed(256, "I256")

const smallInt = (identifier: string, minimum: number, maximum: number) =>
  Schema.Number.check(Schema.isInt(), Schema.isBetween({ minimum, maximum })).annotate({ identifier })

export const U8 = smallInt("U8", 0, 0xff)
export const U16 = smallInt("U16", 0, 0xffff)
export const U32 = smallInt("U32", 0, 0xffffffff)
export const I8 = smallInt("I8", -0x80, 0x7f)
export const I16 = smallInt("I16", -0x8000, 0x7fff)
export const I32 = smallInt("I32", -0x80000000, 0x7fffffff)

const AddressBytes = Schema.Uint8Array.check(
  Schema.makeFilter((u: Uint8Array) => u.length === 32 || "an address is 32 bytes")
)

/** An account address: relaxed input, short-form output (`0x1`, `0xa550c18`). */
export const Address = Schema.String.pipe(
  Schema.decodeTo(AddressBytes, {
    decode: SchemaGetter.transformEffect((s: string) => {
      const r = parseAddress(s)
      return r._tag === "Success"
        ? Effect.succeed(r.success as AccountAddress)
        : Effect.fail(invalid(s, r.failure.message))
    }),
    encode: SchemaGetter.transform((a: AccountAddress) => addressToShortString(a))
  })
).annotate({ identifier: "Address" })

/** Bytes as hex: input with or without `0x`, either case; output `0x` + lowercase (`"0x"` when empty). */
export const HexBytes = Schema.String.pipe(
  Schema.decodeTo(Schema.Uint8Array, {
    decode: SchemaGetter.transformEffect((s: string) => {
      const b = fromHex(s)
      return b === undefined ? Effect.fail(invalid(s, `invalid hex string '${s}'`)) : Effect.succeed(b)
    }),
    encode: SchemaGetter.transform((b: Uint8Array) => toHex0x(b))
  })
).annotate({ identifier: "HexBytes" })
