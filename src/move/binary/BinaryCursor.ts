import { ByteCursor } from "../../bcs/ByteCursor.js"
import { fail } from "./BinaryError.js"

/**
 * A bounded cursor over part of a module's bytes. Every read checks the bytes left first; uleb128
 * reads are canonical (no trailing zero group) and bounded by the caller's maximum before the value
 * is used for anything, so a hostile count can never drive an allocation. The fixed-width integers
 * are `ByteCursor`'s (shared with `BcsReader`), bounded here by the section's `end`.
 */
export class BinaryCursor extends ByteCursor {
  constructor(
    bytes: Uint8Array,
    start: number,
    readonly end: number,
    /** Real bytecode version, for version-gated features. */
    readonly version: number
  ) {
    super(bytes, start)
  }

  get atEnd(): boolean {
    return this.offset >= this.end
  }

  protected need(n: number): void {
    if (this.end - this.offset < n)
      fail("UnexpectedEof", `needed ${n} bytes, ${this.end - this.offset} left`, this.offset)
  }

  fixed(n: number): Uint8Array {
    this.need(n)
    const out = this.bytes.slice(this.offset, this.offset + n)
    this.offset += n
    return out
  }

  /** A uleb128 no larger than `max` (max ≤ 2^32-1 here; see `ulebU64` for wider values). */
  uleb(max: number, what: string): number {
    const start = this.offset
    let value = 0
    let shift = 0
    for (;;) {
      const byte = this.u8()
      value += (byte & 0x7f) * 2 ** shift
      if ((byte & 0x80) === 0) {
        if (byte === 0 && shift > 0) fail("Malformed", `non-canonical uleb128 for ${what}`, start)
        break
      }
      shift += 7
      // 5 groups hold 35 bits: anything longer already exceeds every maximum used with this method.
      if (shift >= 35) fail("Malformed", `uleb128 too long for ${what}`, start)
    }
    if (value > max) fail("LimitExceeded", `${what} ${value} exceeds maximum ${max}`, start)
    return value
  }

  /** A canonical uleb128 holding any u64. */
  ulebU64(what: string): bigint {
    const start = this.offset
    let value = 0n
    let shift = 0n
    for (;;) {
      const byte = this.u8()
      const part = BigInt(byte & 0x7f)
      if (shift === 63n && part > 1n) fail("Malformed", `uleb128 overflows u64 for ${what}`, start)
      value |= part << shift
      if ((byte & 0x80) === 0) {
        if (byte === 0 && shift > 0n) fail("Malformed", `non-canonical uleb128 for ${what}`, start)
        return value
      }
      shift += 7n
      if (shift > 63n) fail("Malformed", `uleb128 overflows u64 for ${what}`, start)
    }
  }
}
