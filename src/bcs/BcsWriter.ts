import { slabCopy } from "./slabBytes.js"

const textEncoder = new TextEncoder()

const U64_MAX = (1n << 64n) - 1n

/**
 * A growable byte buffer that writes BCS. Callers are trusted to pass in-range values (decoders and
 * Schemas validate at the edges); the integer writers still reject out-of-range values with a
 * RangeError, which is a programming error, not an input error.
 */
export class BcsWriter {
  private buf: Uint8Array
  /** Over `buf`, made on the first u64 write (most writers build keys and never need one). */
  private view: DataView | undefined
  private len = 0

  constructor(initialCapacity = 256) {
    this.buf = new Uint8Array(initialCapacity)
  }

  private ensure(n: number): void {
    if (this.len + n <= this.buf.length) return
    let cap = this.buf.length * 2
    while (cap < this.len + n) cap *= 2
    const next = new Uint8Array(cap)
    next.set(this.buf.subarray(0, this.len))
    this.buf = next
    this.view = undefined
  }

  get length(): number {
    return this.len
  }

  u8(v: number): this {
    this.ensure(1)
    this.buf[this.len++] = v & 0xff
    return this
  }

  u16(v: number): this {
    this.ensure(2)
    const b = this.buf
    const o = this.len
    b[o] = v & 0xff
    b[o + 1] = (v >>> 8) & 0xff
    this.len = o + 2
    return this
  }

  u32(v: number): this {
    this.ensure(4)
    const b = this.buf
    const o = this.len
    b[o] = v & 0xff
    b[o + 1] = (v >>> 8) & 0xff
    b[o + 2] = (v >>> 16) & 0xff
    b[o + 3] = (v >>> 24) & 0xff
    this.len = o + 4
    return this
  }

  u64(v: bigint): this {
    if (v < 0n || v > U64_MAX) throw new RangeError(`u64 out of range: ${v}`)
    this.ensure(8)
    this.view ??= new DataView(this.buf.buffer)
    this.view.setBigUint64(this.len, v, true)
    this.len += 8
    return this
  }

  u128(v: bigint): this {
    if (v < 0n || v >> 128n !== 0n) throw new RangeError(`u128 out of range: ${v}`)
    return this.u64(v & U64_MAX).u64(v >> 64n)
  }

  u256(v: bigint): this {
    if (v < 0n || v >> 256n !== 0n) throw new RangeError(`u256 out of range: ${v}`)
    return this.u128(v & ((1n << 128n) - 1n)).u128(v >> 128n)
  }

  /** Two's complement signed integers of `bits` width. */
  signed(bits: 8 | 16 | 32 | 64 | 128 | 256, v: number | bigint): this {
    switch (bits) {
      case 8:
        return this.u8(Number(v) & 0xff)
      case 16:
        return this.u16(Number(v) & 0xffff)
      case 32:
        return this.u32(Number(v) >>> 0)
      case 64:
        return this.u64(BigInt.asUintN(64, BigInt(v)))
      case 128:
        return this.u128(BigInt.asUintN(128, BigInt(v)))
      case 256:
        return this.u256(BigInt.asUintN(256, BigInt(v)))
    }
  }

  bool(v: boolean): this {
    return this.u8(v ? 1 : 0)
  }

  uleb128(v: number): this {
    if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new RangeError(`uleb128 out of range: ${v}`)
    while (v >= 0x80) {
      this.u8((v & 0x7f) | 0x80)
      v = Math.floor(v / 128)
    }
    return this.u8(v)
  }

  fixed(bytes: Uint8Array): this {
    this.ensure(bytes.length)
    this.buf.set(bytes, this.len)
    this.len += bytes.length
    return this
  }

  bytesWithLength(bytes: Uint8Array): this {
    return this.uleb128(bytes.length).fixed(bytes)
  }

  /** UTF-8 with a length prefix; short ASCII strings (identifiers) are written without allocating. */
  string(s: string): this {
    const n = s.length
    if (n < 128) {
      this.ensure(n + 1)
      const start = this.len
      this.buf[start] = n
      let i = 0
      for (; i < n; i++) {
        const c = s.charCodeAt(i)
        if (c >= 0x80) break
        this.buf[start + 1 + i] = c
      }
      if (i === n) {
        this.len = start + 1 + n
        return this
      }
    }
    return this.bytesWithLength(textEncoder.encode(s))
  }

  /** Forgets what was written, keeping the buffer (a scratch writer reused across encodings). */
  reset(): this {
    this.len = 0
    return this
  }

  /** The bytes written so far, copied out (the writer may be reused afterwards). */
  toBytes(): Uint8Array {
    return this.buf.slice(0, this.len)
  }

  /**
   * The bytes written so far, copied into a slab (`slabBytes.ts`): for a block's outputs only,
   * which die with the block; the rules there apply.
   */
  toSlabBytes(): Uint8Array {
    return slabCopy(this.buf.subarray(0, this.len))
  }

  /** The bytes written so far, not copied: valid until the writer is written again or reset. */
  written(): Uint8Array {
    return this.buf.subarray(0, this.len)
  }
}

/** Writers `withScratchWriter` hands out, kept between uses (one per level of nesting). */
const scratchWriters: BcsWriter[] = []
/** A writer that grew past this is not kept (a module bundle's write set: let it go). */
const MAX_KEPT_SCRATCH = 1 << 20

/**
 * Runs `f` with a writer reused across calls, for an encoding copied out before `f` returns
 * (`toBytes`) or hashed in place (`written`): a commit encodes each transaction's write set, events,
 * info and record, and a fresh writer grew from its first capacity (and copied) several times for
 * each (a quarter of the commit's hashing phase, issue 22). Re-entrant: a nested call gets a
 * writer of its own. Never let `f` keep the writer or a `written()` view.
 *
 * `f(w, a)` with `a` given: on a path taken per transaction, pass a function made once and its
 * input rather than a closure made per call — V8 drops the optimized code of a closure made per
 * call at every full collection and compiles it again (docs/benchmarks.md, "Session 12").
 */
export function withScratchWriter<R>(f: (w: BcsWriter) => R): R
export function withScratchWriter<R, A>(f: (w: BcsWriter, a: A) => R, a: A): R
export function withScratchWriter<R, A, B>(f: (w: BcsWriter, a: A, b: B) => R, a: A, b: B): R
export function withScratchWriter<R, A, B>(f: (w: BcsWriter, a?: A, b?: B) => R, a?: A, b?: B): R {
  const w = scratchWriters.pop() ?? new BcsWriter(4096)
  try {
    return f(w.reset(), a, b)
  } finally {
    if (w.length <= MAX_KEPT_SCRATCH) scratchWriters.push(w)
  }
}
