import type { TransactionSummary } from "../ledger/Ledger.js"

/**
 * The transaction summaries page as JSON, written byte by byte into one scratch buffer and read back
 * as a single flat latin1 string. Building it from string pieces made a rope of ~10 parts per item
 * that the socket write then had to flatten; per-value hex conversions cost more still. Everything
 * in the page is ASCII (fixed keys, hex, decimal digits), so one byte is one character.
 */

const ASCII = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0))

const OPEN_FIRST = ASCII('{"sender":"0x')
const OPEN_NEXT = ASCII(',{"sender":"0x')
const VERSION = ASCII('","version":"')
const HASH = ASCII('","transaction_hash":"0x')
const SEQUENCE = ASCII('","replay_protector":{"type":"sequence_number","sequence_number":"')
const NONCE = ASCII('","replay_protector":{"type":"nonce","nonce":"')
const CLOSE = ASCII('"}}')

/** `HEX_CODES[b]` = the two lowercase hex digits of `b` as character codes, high one in the high byte. */
const HEX_CODES = Uint16Array.from({ length: 256 }, (_, b) => {
  const digit = (n: number) => (n < 10 ? 48 + n : 87 + n)
  return (digit(b >> 4) << 8) | digit(b & 15)
})

/** Longest item: both templates' longer variants, 64 hex digits twice, two u64s of 20 digits. */
const MAX_ITEM = OPEN_NEXT.length + 64 + VERSION.length + 20 + HASH.length + 64 + SEQUENCE.length + 20 + CLOSE.length

let scratch = Buffer.allocUnsafeSlow(16 * 1024)

/** Fixed text: a native copy (cheaper than a byte loop past a dozen bytes). */
const put = (out: Buffer, at: number, bytes: Uint8Array): number => {
  out.set(bytes, at)
  return at + bytes.length
}

/** All the hex digits of `bytes` (the hash: 64 of them, leading zeros kept). */
const putHex = (out: Uint8Array, at: number, bytes: Uint8Array): number => {
  for (let i = 0; i < bytes.length; i++) {
    const code = HEX_CODES[bytes[i] as number] as number
    out[at] = code >> 8
    out[at + 1] = code & 0xff
    at += 2
  }
  return at
}

/** The address's hex digits without leading zeros (the API's short form, `0x0` for zero). */
const shortHex = (address: Uint8Array): Uint8Array => {
  const digits = new Uint8Array(64)
  putHex(digits, 0, address)
  let lead = 0
  while (lead < 63 && digits[lead] === 48) lead++
  return digits.subarray(lead)
}

/** Decimal digits of a u64: exact doubles below 2^53 (every realistic version and sequence number). */
const putU64 = (out: Buffer, at: number, value: bigint): number => {
  if (value > 9007199254740991n) return at + out.write(value.toString(), at, "latin1")
  let n = Number(value)
  let digits = 1
  for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) digits++
  for (let i = at + digits - 1; i >= at; i--) {
    const q = Math.floor(n / 10)
    out[i] = 48 + (n - q * 10)
    n = q
  }
  return at + digits
}

export const summariesJson = (summaries: ReadonlyArray<TransactionSummary>): string => {
  const n = summaries.length
  if (n === 0) return "[]"
  const need = 2 + n * MAX_ITEM
  if (scratch.length < need) scratch = Buffer.allocUnsafeSlow(Math.max(need, scratch.length * 2))
  const out = scratch
  out[0] = 91 // [
  let at = 1
  // A page is one sender's: its short hex is made once and copied into every item.
  let sender: Uint8Array | undefined
  let senderHex: Uint8Array = new Uint8Array(0)
  for (let i = 0; i < n; i++) {
    const s = summaries[i]!
    at = put(out, at, i === 0 ? OPEN_FIRST : OPEN_NEXT)
    if (s.sender !== sender) {
      sender = s.sender
      senderHex = shortHex(s.sender.length === 32 ? s.sender : s.sender.subarray(0, 32))
    }
    at = put(out, at, senderHex)
    at = put(out, at, VERSION)
    at = putU64(out, at, s.version)
    at = put(out, at, HASH)
    at = putHex(out, at, s.hash.length === 32 ? s.hash : s.hash.subarray(0, 32))
    const rp = s.replayProtector
    if (rp._tag === "SequenceNumber") {
      at = put(out, at, SEQUENCE)
      at = putU64(out, at, rp.sequenceNumber)
    } else {
      at = put(out, at, NONCE)
      at = putU64(out, at, rp.nonce)
    }
    at = put(out, at, CLOSE)
  }
  out[at++] = 93 // ]
  return out.toString("latin1", 0, at)
}
