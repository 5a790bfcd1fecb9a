import * as Result from "effect/Result"
import { Bcs, fromHex, toHex0x, toShortHex0x } from "../bcs/index.js"

/**
 * An account address: 32 bytes. Kept as a plain Uint8Array (no wrapper object) because the VM and
 * the store handle millions of them; the functions here give it its parsing and printing rules.
 */
export type AccountAddress = Uint8Array

export const ADDRESS_LENGTH = 32

const HEX_DIGITS = /^[0-9a-fA-F]+$/

export class AddressParseError {
  readonly _tag = "AddressParseError"
  constructor(readonly message: string) {}
}

/**
 * Relaxed AIP-40 parsing, as the reference's `AccountAddress::from_str`: with or without "0x",
 * 1 to 64 hex digits, either case, left-padded with zeros.
 */
export const parseAddress = (input: string): Result.Result<AccountAddress, AddressParseError> => {
  const digits = input.startsWith("0x") || input.startsWith("0X") ? input.slice(2) : input
  if (digits.length === 0) return Result.fail(new AddressParseError(`Invalid account address: Hex string is too short`))
  if (digits.length > 64) return Result.fail(new AddressParseError(`Invalid account address: Hex string is too long`))
  // Digits only: `fromHex` would otherwise accept a second "0x" ("0x0x12").
  const bytes = HEX_DIGITS.test(digits) ? fromHex(digits.length % 2 === 0 ? digits : "0" + digits) : undefined
  if (bytes === undefined)
    return Result.fail(new AddressParseError(`Invalid account address: Hex characters are invalid`))
  const out = new Uint8Array(ADDRESS_LENGTH)
  out.set(bytes, ADDRESS_LENGTH - bytes.length)
  return Result.succeed(out)
}

/** Output form of the reference API: "0x" + lowercase hex, leading zeros stripped ("0x0" for zero). */
export const addressToShortString = (a: AccountAddress): string =>
  // Every type tag and event key of every rendered transaction comes through here: no regex, and
  // one flat string (bcs/hex.ts).
  toShortHex0x(a)

/** "0x" + all 64 hex digits. */
export const addressToLongString = (a: AccountAddress): string => toHex0x(a)

export const addressEquals = (a: AccountAddress, b: AccountAddress): boolean => {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** Byte-wise order, which is also the BCS map order of addresses. */
export const addressCompare = (a: AccountAddress, b: AccountAddress): number => {
  for (let i = 0; i < ADDRESS_LENGTH; i++) if (a[i] !== b[i]) return a[i]! - b[i]!
  return 0
}

/** The address whose last bytes are `n` (0x1, 0xa, …). */
export const addressFromNumber = (n: number | bigint): AccountAddress => {
  const out = new Uint8Array(ADDRESS_LENGTH)
  let v = BigInt(n)
  for (let i = ADDRESS_LENGTH - 1; i >= 0 && v > 0n; i--) {
    out[i] = Number(v & 0xffn)
    v >>= 8n
  }
  return out
}

export const addressCodec = Bcs.fixedBytes(ADDRESS_LENGTH)
