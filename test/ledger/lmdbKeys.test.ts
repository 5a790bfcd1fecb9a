import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  accountSequenceKey,
  eventIndexKey,
  indexKey,
  summaryKey,
  u64be,
  versionOfIndexKey
} from "../../src/ledger/lmdbKeys.js"

/** The keys' integers are written without BigInt arithmetic below 2^53: the bytes are Node's BigInt writes all the same. */
const reference = (v: bigint): Buffer => {
  const b = Buffer.alloc(8)
  b.writeBigUInt64BE(v)
  return b
}
const U64_MAX = (1n << 64n) - 1n
const u64 = fc.oneof(
  fc.bigInt({ min: 0n, max: U64_MAX }),
  fc.bigInt({ min: 0n, max: BigInt(Number.MAX_SAFE_INTEGER) + 2n }),
  fc.constantFrom(0n, 1n, 0xffffffffn, 0x100000000n, BigInt(Number.MAX_SAFE_INTEGER), U64_MAX)
)
const address = fc.uint8Array({ minLength: 32, maxLength: 32 })

describe("LMDB keys", () => {
  it("write u64s big-endian, the state index's version inverted", () =>
    fc.assert(
      fc.property(u64, u64, address, (a, b, addr) => {
        expect(u64be(a)).toEqual(reference(a))
        const k = indexKey(a, b)
        expect(k).toEqual(Buffer.concat([reference(a), reference(U64_MAX - b)]))
        expect(versionOfIndexKey(k)).toBe(b)
        expect(summaryKey(addr, b)).toEqual(Buffer.concat([Buffer.from(addr), reference(b)]))
        expect(accountSequenceKey(addr, a)).toEqual(Buffer.concat([Buffer.from(addr), reference(a)]))
        expect(eventIndexKey(addr, a, b)).toEqual(Buffer.concat([Buffer.from(addr), reference(a), reference(b)]))
      }),
      { numRuns: 2000 }
    ))
})
