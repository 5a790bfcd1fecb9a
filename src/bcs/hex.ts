const HEX = "0123456789abcdef"
const byteToHex: string[] = Array.from({ length: 256 }, (_, i) => HEX[i >> 4]! + HEX[i & 15]!)

/** Lowercase hex without a prefix. */
export const toHex = (bytes: Uint8Array): string => {
  let s = ""
  for (let i = 0; i < bytes.length; i++) s += byteToHex[bytes[i]!]
  return s
}

/** "0x" + lowercase hex. */
export const toHex0x = (bytes: Uint8Array): string => "0x" + toHex(bytes)

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
