/**
 * A little-endian u64 read straight from the bytes: one BigInt from an exact double when it is
 * below 2^53. Unlike a `DataView`, it does not ask for the array's `buffer`: a typed array of up to
 * 64 bytes lives in V8's heap, and asking for its buffer moves it into a backing store of its own
 * (an off-heap allocation; bcs/slabBytes.ts says what those cost).
 */
export const u64LeAt = (b: Uint8Array, at: number): bigint => {
  if (at < 0 || at + 8 > b.length) throw new RangeError(`u64 at ${at} is outside ${b.length} bytes`)
  const lo = b[at]! + (b[at + 1]! << 8) + (b[at + 2]! << 16) + b[at + 3]! * 0x1000000
  const hi = b[at + 4]! + (b[at + 5]! << 8) + (b[at + 6]! << 16) + b[at + 7]! * 0x1000000
  return hi < 0x200000 ? BigInt(hi * 0x100000000 + lo) : (BigInt(hi) << 32n) + BigInt(lo)
}
