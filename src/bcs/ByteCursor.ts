/**
 * The fixed-width little-endian reads every cursor over binary input shares: `BcsReader` and the
 * Move binary reader's `BinaryCursor`. Each subclass bounds its reads (`need`) and fails with its
 * own error type. u16/u32 are composed from the bytes (faster than a DataView at these widths); the
 * DataView is made on the first u64, which most readers (keys, small resources) never make.
 */
export abstract class ByteCursor {
  /** Made on the first u64 read. */
  private view: DataView | undefined = undefined

  constructor(
    readonly bytes: Uint8Array,
    public offset: number
  ) {}

  /** Fails, with the subclass's error, unless `n` bytes are left before its bound. */
  protected abstract need(n: number): void

  u8(): number {
    this.need(1)
    return this.bytes[this.offset++]!
  }

  u16(): number {
    this.need(2)
    const b = this.bytes
    const o = this.offset
    this.offset = o + 2
    return b[o]! | (b[o + 1]! << 8)
  }

  u32(): number {
    this.need(4)
    const b = this.bytes
    const o = this.offset
    this.offset = o + 4
    return (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24)) >>> 0
  }

  u64(): bigint {
    this.need(8)
    const b = this.bytes
    this.view ??= new DataView(b.buffer, b.byteOffset, b.byteLength)
    const v = this.view.getBigUint64(this.offset, true)
    this.offset += 8
    return v
  }

  u128(): bigint {
    const lo = this.u64()
    const hi = this.u64()
    return (hi << 64n) | lo
  }

  u256(): bigint {
    const lo = this.u128()
    const hi = this.u128()
    return (hi << 128n) | lo
  }
}
