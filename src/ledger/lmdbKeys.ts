import { sha3 } from "../domain/hash.js"

/**
 * Binary keys of the LMDB store. Integers are big-endian so byte order is numeric order; the state
 * index's versions are inverted (`~version`) so the newest entry of a key comes first and "newest
 * at or below V" is a forward seek to `id ‖ ~V` limited to one entry.
 */

export const u64be = (v: bigint): Buffer => {
  const b = Buffer.allocUnsafe(8)
  putU64be(b, v, 0)
  return b
}

const TWO_32 = 0x100000000
const SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/**
 * `b.writeBigUInt64BE(v, at)`, through two 32-bit writes when `v` is below 2^53 (every version,
 * key number and sequence number in practice): Node's BigInt write is several times slower, and
 * keys are built for every write of every commit.
 */
const putU64be = (b: Buffer, v: bigint, at: number): void => {
  if (v < 0n || v > SAFE) {
    b.writeBigUInt64BE(v, at)
    return
  }
  const n = Number(v)
  b.writeUInt32BE(Math.floor(n / TWO_32), at)
  b.writeUInt32BE(n >>> 0, at + 4)
}

/** `putU64be(b, U64_MAX - v, at)`: the bitwise complement of `v`, without BigInt arithmetic. */
const putInvertedU64be = (b: Buffer, v: bigint, at: number): void => {
  if (v < 0n || v > SAFE) {
    b.writeBigUInt64BE(U64_MAX - v, at)
    return
  }
  const n = Number(v)
  b.writeUInt32BE(0xffffffff - Math.floor(n / TWO_32), at)
  b.writeUInt32BE(0xffffffff - (n >>> 0), at + 4)
}

export const readU64be = (b: Uint8Array, offset = 0): bigint =>
  Buffer.from(b.buffer, b.byteOffset, b.byteLength).readBigUInt64BE(offset)

const U64_MAX = (1n << 64n) - 1n

/**
 * LMDB keys are at most 1978 bytes. A BCS StateKey starts with its variant byte (0..2), so keys
 * too long to store raw are stored as 0xff ‖ sha3-256(keyBytes): never equal to a raw key.
 */
export const MAX_RAW_STATE_KEY = 1024

export const storedStateKey = (keyBytes: Uint8Array): Buffer => {
  if (keyBytes.length <= MAX_RAW_STATE_KEY)
    return Buffer.from(keyBytes.buffer, keyBytes.byteOffset, keyBytes.byteLength)
  const out = Buffer.allocUnsafe(33)
  out[0] = 0xff
  out.set(sha3(keyBytes), 1)
  return out
}

/**
 * `id ‖ ~version` (16 bytes): the `state_values` key of the value key `id` had at `version`. `id`
 * is the number the store gave the key when it was first written (`state_latest` holds it).
 */
export const indexKey = (id: bigint, version: bigint): Buffer => {
  const out = Buffer.allocUnsafe(16)
  putU64be(out, id, 0)
  putInvertedU64be(out, version, 8)
  return out
}

export const versionOfIndexKey = (key: Uint8Array): bigint => U64_MAX - readU64be(key, 8)

/** Where an index entry says the value is not in its transaction's record but in `state_values`. */
export const IN_STATE_VALUES = 0xffff_ffff

/**
 * `~version ‖ where` (12 bytes): one of the state index's values under key `id` (format 5: a
 * sorted-duplicates table of fixed-size values, `u64be(id)` → one value per write), the write of
 * key `id` at `version`, whose op starts at `where` in that version's record (or
 * `IN_STATE_VALUES`). Inverted, so the newest write comes first and "newest at or below V" is a
 * forward seek to `~V ‖ 0`.
 */
export const indexEntry = (version: bigint, where: number): Buffer => {
  const out = Buffer.allocUnsafe(12)
  putInvertedU64be(out, version, 0)
  out.writeUInt32BE(where, 8)
  return out
}

export const versionOfIndexEntry = (entry: Uint8Array): bigint => U64_MAX - readU64be(entry, 0)

/** `sender ‖ version`: one user transaction in the per-sender summary index. */
export const summaryKey = (sender: Uint8Array, version: bigint): Buffer => {
  const out = Buffer.allocUnsafe(40)
  out.set(sender, 0)
  putU64be(out, version, 32)
  return out
}

/**
 * The summary index's key encoder for range reads (lmdb-js `keyEncoder`): keys are written as the
 * bytes `summaryKey` made, and read back as just their version, straight from lmdb's key buffer
 * (no per-entry key copy). The store keeps comparing keys as plain bytes.
 */
export const summaryKeyEncoder = {
  writeKey: (key: Uint8Array, target: Uint8Array, start: number): number => {
    target.set(key, start)
    return start + key.length
  },
  readKey: (bytes: Uint8Array, _start: number, end: number): bigint => u64At(bytes, end - 8)
}

/** A big-endian u64 from plain bytes: one BigInt from an exact double when it is below 2^53. */
export const u64At = (b: Uint8Array, at: number): bigint => {
  const hi =
    (b[at] as number) * 0x1000000 + ((b[at + 1] as number) << 16) + ((b[at + 2] as number) << 8) + (b[at + 3] as number)
  const lo =
    (b[at + 4] as number) * 0x1000000 +
    ((b[at + 5] as number) << 16) +
    ((b[at + 6] as number) << 8) +
    (b[at + 7] as number)
  return hi < 0x200000 ? BigInt(hi * 0x100000000 + lo) : (BigInt(hi) << 32n) | BigInt(lo)
}

export const bytesEqualPrefix = (a: Uint8Array, prefix: Uint8Array): boolean => {
  if (a.length < prefix.length) return false
  for (let i = 0; i < prefix.length; i++) if (a[i] !== prefix[i]) return false
  return true
}

/** `sender ‖ sequence number`: one sequence-number transaction in the account-transactions index. */
export const accountSequenceKey = (sender: Uint8Array, sequenceNumber: bigint): Buffer => {
  const out = Buffer.allocUnsafe(40)
  out.set(sender, 0)
  putU64be(out, sequenceNumber, 32)
  return out
}

/** `address ‖ creation number ‖ sequence number`: one handle event in the by-key event index. */
export const eventIndexKey = (address: Uint8Array, creationNumber: bigint, sequenceNumber: bigint): Buffer => {
  const out = Buffer.allocUnsafe(48)
  out.set(address, 0)
  putU64be(out, creationNumber, 32)
  putU64be(out, sequenceNumber, 40)
  return out
}

/** An account's access paths: BCS(StateKey) starts with the AccessPath tag 0 then the address. */
export const accountKeyPrefix = (address: Uint8Array): Buffer => {
  const out = Buffer.allocUnsafe(33)
  out[0] = 0
  out.set(address, 1)
  return out
}

/** Bytes of a long key kept in the long-key index's sort key (the rest is told apart by its hash). */
const LONG_KEY_ORDER_BYTES = 1024

/**
 * The long-key index's key for an access path stored hashed (longer than `MAX_RAW_STATE_KEY`):
 * its account prefix and first bytes (so an account's long keys sort as their bytes do, up to ties
 * within those first bytes) then its sha3-256. Its value is the whole key, which the hashed
 * `state_latest` entry cannot give back when an account's state is listed.
 */
export const longKeyIndexKey = (keyBytes: Uint8Array): Buffer => {
  const head = keyBytes.subarray(0, Math.min(keyBytes.length, LONG_KEY_ORDER_BYTES))
  const out = Buffer.allocUnsafe(head.length + 32)
  out.set(head, 0)
  out.set(sha3(keyBytes), head.length)
  return out
}
