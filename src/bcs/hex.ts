const HEX = "0123456789abcdef"
const byteToHex: string[] = Array.from({ length: 256 }, (_, i) => HEX[i >> 4]! + HEX[i & 15]!)
const DIGITS = Uint8Array.from(HEX, (c) => c.charCodeAt(0))

/** The JS way: one string concatenation per byte (no `Buffer` on the host, or a large input). */
const concatHex = (bytes: Uint8Array): string => {
  let s = ""
  for (let i = 0; i < bytes.length; i++) s += byteToHex[bytes[i]!]
  return s
}

type LatinBuffer = Uint8Array & {
  toString(encoding: "hex"): string
  /** Node's Latin-1 decoding of a range (what `toString("latin1", start, end)` calls, without its argument checks). */
  latin1Slice(start: number, end: number): string
}
const NodeBuffer = (
  globalThis as unknown as {
    Buffer?: {
      allocUnsafeSlow(n: number): LatinBuffer
      from(buffer: ArrayBufferLike, byteOffset: number, length: number): LatinBuffer
    }
  }
).Buffer

/** Inputs up to this many bytes are written as digits into `scratch`; longer ones by Buffer's hex. */
const SCRATCH_INPUT = 2048
/**
 * Where the digits of a short input are written, then read back as one Latin-1 string: that string
 * is flat. Built by concatenation, a 32-byte address was a chain of ~30 `ConsString`s, which every
 * later use (a Map key, a SQLite parameter, JSON, a comparison) copied into a flat string again —
 * ~0.45 µs per address built and used as a key, against ~0.19 this way (session 15).
 */
const scratch: LatinBuffer | undefined = NodeBuffer?.allocUnsafeSlow(2 + 2 * SCRATCH_INPUT)

/**
 * Hex digits of `bytes` from byte `from` (digit `skip` of it: 0 or 1), after `prefix` (0: none,
 * 2: "0x"), through `scratch`.
 */
const scratchHex = (s: LatinBuffer, bytes: Uint8Array, prefix: 0 | 2, skip: 0 | 1, from = 0): string => {
  let j = 0
  if (prefix === 2) {
    s[0] = 48 // "0"
    s[1] = 120 // "x"
    j = 2
  }
  let i = from
  if (skip === 1) {
    s[j++] = DIGITS[bytes[i]! & 15]!
    i++
  }
  for (; i < bytes.length; i++) {
    const b = bytes[i]!
    s[j++] = DIGITS[b >> 4]!
    s[j++] = DIGITS[b & 15]!
  }
  return s.latin1Slice(0, j)
}

/** Lowercase hex without a prefix. */
export const toHex = (bytes: Uint8Array): string => {
  if (scratch !== undefined && bytes.length <= SCRATCH_INPUT) return scratchHex(scratch, bytes, 0, 0)
  if (NodeBuffer !== undefined) return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("hex")
  return concatHex(bytes)
}

/** "0x" + lowercase hex. */
export const toHex0x = (bytes: Uint8Array): string =>
  scratch !== undefined && bytes.length <= SCRATCH_INPUT ? scratchHex(scratch, bytes, 2, 0) : "0x" + toHex(bytes)

/**
 * "0x" + lowercase hex without leading zeros ("0x0" for none but zeros): an address's short form,
 * as the API writes addresses in type tags and event keys.
 */
export const toShortHex0x = (bytes: Uint8Array): string => {
  let i = 0
  while (i < bytes.length && bytes[i] === 0) i++
  if (i === bytes.length) return "0x0"
  // From the first non-zero byte in place (an address is rendered this way in every type string).
  if (scratch !== undefined && bytes.length - i <= SCRATCH_INPUT)
    return scratchHex(scratch, bytes, 2, bytes[i]! < 16 ? 1 : 0, i)
  const hex = toHex(bytes.subarray(i))
  return hex.charCodeAt(0) === 48 ? "0x" + hex.slice(1) : "0x" + hex
}

const nibble = (c: number): number => {
  if (c >= 48 && c <= 57) return c - 48
  if (c >= 97 && c <= 102) return c - 87
  if (c >= 65 && c <= 70) return c - 55
  return -1
}

/** Parses hex with or without "0x", either case; undefined for odd length or a non-hex digit. */
export const fromHex = (s: string): Uint8Array | undefined => {
  const start = s.startsWith("0x") || s.startsWith("0X") ? 2 : 0
  const n = s.length - start
  if (n % 2 !== 0) return undefined
  const out = new Uint8Array(n / 2)
  for (let i = 0; i < out.length; i++) {
    const hi = nibble(s.charCodeAt(start + 2 * i))
    const lo = nibble(s.charCodeAt(start + 2 * i + 1))
    if (hi < 0 || lo < 0) return undefined
    out[i] = (hi << 4) | lo
  }
  return out
}
