/**
 * The dump's framing (`src/chain/controls/chainDump.ts`): its header (chain id, the base it
 * continues — genesis or a fork point —, the clock) reads back as written; a format-1 dump (before
 * forks dumped) reads as based on genesis; and bytes that pass the checksum but are garbage inside
 * are answered with a reason, never a throw. Loading real dumps: dumpLoad.test.ts and
 * test/fork/forkControls.test.ts.
 */
import { crc32 } from "node:zlib"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { decodeChainDump, DUMP_FORMAT, encodeChainDump } from "../../src/chain/controls/chainDump.js"

const MAGIC = new TextEncoder().encode("movenode-chain-dump\n")

/** `body` framed as a dump: the checksum appended. */
const framed = (body: Uint8Array): Uint8Array => {
  const out = new Uint8Array(body.length + 4)
  out.set(body)
  new DataView(out.buffer).setUint32(body.length, crc32(body), true)
  return out
}

const headerArb = fc.record({
  chainId: fc.integer({ min: 0, max: 255 }),
  base: fc.record({
    version: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
    hash: fc.uint8Array({ minLength: 32, maxLength: 32 })
  }),
  clock: fc.record({
    offsetUsec: fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }),
    nextUsec: fc.option(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), { nil: undefined }),
    intervalUsec: fc.option(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), { nil: undefined })
  })
})

describe("the chain dump's framing", () => {
  it("reads its header back as written", () => {
    fc.assert(
      fc.property(headerArb, (header) => {
        const decoded = decodeChainDump(encodeChainDump(header, []))
        expect(decoded).toEqual({ ...header, blocks: [] })
      })
    )
  })

  it("reads a format-1 dump (no base version) as based on genesis", () => {
    const hash = new Uint8Array(32).fill(7)
    const body = [...MAGIC, 1, 4, ...hash, ...new Uint8Array(8), 0, 0, 0]
    const decoded = decodeChainDump(framed(Uint8Array.from(body)))
    expect(decoded).toEqual({
      chainId: 4,
      base: { version: 0n, hash },
      clock: { offsetUsec: 0n, nextUsec: undefined, intervalUsec: undefined },
      blocks: []
    })
    expect(DUMP_FORMAT).toBe(2)
  })

  it("answers garbage behind a valid checksum with a reason, never a throw", () => {
    fc.assert(
      fc.property(
        headerArb,
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }),
          // A plausible start: the magic, a format, then anything.
          fc
            .tuple(fc.constantFrom(1, 2, 3), fc.uint8Array({ maxLength: 300 }))
            .map(([f, rest]) => Uint8Array.from([...MAGIC, f, ...rest]))
        ),
        fc.boolean(),
        (header, garbage, afterHeader) => {
          // Either garbage alone, or garbage after a real header (blocks claimed, records that are not).
          const head = encodeChainDump(header, [])
          const body = afterHeader ? Uint8Array.from([...head.subarray(0, head.length - 5), ...garbage]) : garbage
          const decoded = decodeChainDump(framed(body))
          if (typeof decoded !== "string") expect(decoded.blocks.length).toBeGreaterThanOrEqual(0)
        }
      ),
      { numRuns: 2000, seed: 42 }
    )
  })
})
