import { BcsError } from "./BcsError.js"
import { type BcsLimits, defaultLimits } from "./limits.js"
import { ByteCursor } from "./ByteCursor.js"

const textDecoder = new TextDecoder("utf-8", { fatal: true })

/**
 * Short ASCII strings read before, by a hash of their bytes (one per slot, the latest read wins):
 * a bounded, direct-mapped table shared by every reader of the thread (nothing yields inside a read).
 */
const INTERN_SLOTS = 1024
const INTERN_MAX_LENGTH = 32
const interned: Array<string | undefined> = new Array(INTERN_SLOTS).fill(undefined)

/**
 * A cursor over BCS bytes. Every read checks the remaining length first, so a truncated or hostile
 * input fails with a BcsError before anything is allocated. Lengths are checked against both the
 * configured maximum and the bytes actually left (a vector of N elements needs at least N bytes).
 * The fixed-width integers are `ByteCursor`'s, bounded by the end of `bytes`.
 */
export class BcsReader extends ByteCursor {
  depth = 0

  constructor(
    bytes: Uint8Array,
    readonly limits: BcsLimits = defaultLimits
  ) {
    super(bytes, 0)
  }

  get remaining(): number {
    return this.bytes.length - this.offset
  }

  fail(reason: string): never {
    throw new BcsError(reason, this.offset)
  }

  /** A BCS `Option`'s tag: true for Some (1), false for None (0); any other byte fails at the tag. */
  optionTag(): boolean {
    const t = this.u8()
    if (t > 1) {
      this.offset--
      this.fail(`invalid option tag ${t}`)
    }
    return t === 1
  }

  protected need(n: number): void {
    if (this.bytes.length - this.offset < n) this.fail(`needed ${n} bytes, ${this.remaining} left`)
  }

  /** Two's complement signed integers of `bits` width, read from the unsigned form. */
  signed(bits: 8 | 16 | 32 | 64 | 128 | 256): number | bigint {
    switch (bits) {
      case 8:
        return (this.u8() << 24) >> 24
      case 16:
        return (this.u16() << 16) >> 16
      case 32:
        return this.u32() | 0
      case 64:
        return BigInt.asIntN(64, this.u64())
      case 128:
        return BigInt.asIntN(128, this.u128())
      case 256:
        return BigInt.asIntN(256, this.u256())
    }
  }

  bool(): boolean {
    const b = this.u8()
    if (b > 1) {
      this.offset--
      this.fail(`invalid bool byte ${b}`)
    }
    return b === 1
  }

  /** ULEB128 as used by BCS: canonical, at most 32 bits of value. */
  uleb128(): number {
    let value = 0
    let shift = 0
    for (;;) {
      if (shift > 28) this.fail("uleb128 overflows u32")
      const byte = this.u8()
      const part = byte & 0x7f
      if (shift === 28 && part > 0x0f) this.fail("uleb128 overflows u32")
      value += part * 2 ** shift
      if ((byte & 0x80) === 0) {
        if (byte === 0 && shift > 0) this.fail("non-canonical uleb128")
        return value
      }
      shift += 7
    }
  }

  /** A length prefix: a uleb128 bounded by the limit and by `minElementSize` × count ≤ remaining. */
  length(minElementSize = 1): number {
    const start = this.offset
    const n = this.uleb128()
    if (n > this.limits.maxLength) {
      this.offset = start
      this.fail(`length ${n} exceeds limit ${this.limits.maxLength}`)
    }
    if (minElementSize > 0 && n * minElementSize > this.remaining) {
      this.offset = start
      this.fail(`length ${n} exceeds the ${this.remaining} bytes left`)
    }
    return n
  }

  fixed(n: number): Uint8Array {
    this.need(n)
    const out = this.bytes.subarray(this.offset, this.offset + n)
    this.offset += n
    return out
  }

  bytesWithLength(): Uint8Array {
    return this.fixed(this.length(1))
  }

  /**
   * UTF-8 with a length prefix. Short ASCII strings (identifiers: module, struct and function names,
   * read again and again from type tags and state keys) skip the TextDecoder and come from a small
   * table of strings read before when the bytes match one: no allocation at all.
   */
  string(): string {
    const start = this.offset
    const n = this.length(1)
    this.need(n)
    const b = this.bytes
    const at = this.offset
    if (n <= 64) {
      let hash = 0x811c9dc5 ^ n
      let ascii = true
      for (let i = 0; i < n; i++) {
        const c = b[at + i]!
        if (c >= 0x80) {
          ascii = false
          break
        }
        hash = Math.imul(hash ^ c, 0x01000193)
      }
      if (ascii) {
        this.offset = at + n
        if (n > INTERN_MAX_LENGTH) return String.fromCharCode.apply(null, b.subarray(at, at + n) as unknown as number[])
        const slot = (hash >>> 0) & (INTERN_SLOTS - 1)
        const known = interned[slot]
        if (known !== undefined && known.length === n) {
          let i = 0
          while (i < n && known.charCodeAt(i) === b[at + i]) i++
          if (i === n) return known
        }
        const s = String.fromCharCode.apply(null, b.subarray(at, at + n) as unknown as number[])
        interned[slot] = s
        return s
      }
    }
    const raw = this.fixed(n)
    try {
      return textDecoder.decode(raw)
    } catch {
      this.offset = start
      return this.fail("invalid UTF-8")
    }
  }

  /** Enter one level of a recursive structure; pair every call with `leave`. */
  enter(): void {
    if (++this.depth > this.limits.maxDepth) this.fail(`nesting deeper than ${this.limits.maxDepth}`)
  }

  leave(): void {
    this.depth--
  }

  expectEnd(): void {
    if (this.offset !== this.bytes.length) this.fail(`${this.remaining} trailing bytes`)
  }
}
