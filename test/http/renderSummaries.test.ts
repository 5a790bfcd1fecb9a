import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  summariesBcs,
  summariesJson,
  summariesJsonBytes,
  summariesPageBcs,
  summariesPageJson
} from "../../src/http/Render.js"
import type { TransactionSummary } from "../../src/ledger/Ledger.js"

// The byte-level page renderer against the API's shape built with JSON.stringify: short sender
// (leading zeros stripped, `0x0` for zero), every u64 as a decimal string, full 64-digit hashes.

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex")
const short = (b: Uint8Array) => `0x${hex(b).replace(/^0+/, "") || "0"}`

const expected = (page: ReadonlyArray<TransactionSummary>): string =>
  JSON.stringify(
    page.map((s) => ({
      sender: short(s.sender),
      version: s.version.toString(),
      transaction_hash: `0x${hex(s.hash)}`,
      replay_protector:
        s.replayProtector._tag === "SequenceNumber"
          ? { type: "sequence_number", sequence_number: s.replayProtector.sequenceNumber.toString() }
          : { type: "nonce", nonce: s.replayProtector.nonce.toString() }
    }))
  )

const u64 = fc.oneof(
  fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
  fc.bigInt({ min: 0n, max: 1000n }),
  fc.constantFrom(0n, 9n, 10n, 99n, 100n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, (1n << 64n) - 1n)
)
// Addresses with runs of leading zero bytes and nibbles, as real short addresses have.
const address = fc
  .tuple(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.integer({ min: 0, max: 32 }), fc.boolean())
  .map(([bytes, zeros, halfByte]) => {
    const a = new Uint8Array(bytes)
    a.fill(0, 0, zeros)
    if (halfByte && zeros < 32) a[zeros] = (a[zeros] as number) & 0x0f
    return a
  })
const summary = (sender: fc.Arbitrary<Uint8Array>): fc.Arbitrary<TransactionSummary> =>
  fc.record({
    sender,
    version: u64,
    hash: fc.uint8Array({ minLength: 32, maxLength: 32 }),
    replayProtector: fc.oneof(
      u64.map((n) => ({ _tag: "SequenceNumber" as const, sequenceNumber: n })),
      u64.map((n) => ({ _tag: "Nonce" as const, nonce: n }))
    )
  })

describe("summariesJson", () => {
  it("renders an empty page and the zero address", () => {
    expect(summariesJson([])).toBe("[]")
    const zero = {
      sender: new Uint8Array(32),
      version: 0n,
      hash: new Uint8Array(32),
      replayProtector: { _tag: "Nonce" as const, nonce: 0n }
    }
    expect(summariesJson([zero])).toBe(expected([zero]))
    expect(summariesJson([zero])).toContain('"sender":"0x0"')
  })

  it("any page of one shared sender (the ledger's pages) renders as JSON.stringify would", () => {
    fc.assert(
      fc.property(
        address.chain((sender) => fc.array(summary(fc.constant(sender)), { maxLength: 120 })),
        (page) => {
          expect(summariesJson(page)).toBe(expected(page))
        }
      ),
      { numRuns: 60 }
    )
  })

  it("pages mixing senders (shared and distinct arrays) render each item's own sender", () => {
    fc.assert(
      fc.property(
        fc.array(summary(address), { maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        (items, picks) => {
          // Reuse some items' sender arrays so equal-reference and equal-bytes runs both occur.
          const page = items.map((s, i) => {
            const from = items[(picks[i] ?? i) % items.length]!
            return picks[i] !== undefined && picks[i]! % 3 === 0 ? { ...s, sender: from.sender } : s
          })
          const text = summariesJson(page)
          expect(text).toBe(expected(page))
          expect(Buffer.from(summariesJsonBytes(page)).toString("latin1")).toBe(text)
        }
      )
    )
  })

  it("a later, smaller page is not affected by a larger one rendered before", () => {
    const big = fc.sample(summary(address), { numRuns: 200, seed: 7 })
    expect(summariesJson(big)).toBe(expected(big))
    const small = big.slice(0, 2)
    expect(summariesJson(small)).toBe(expected(small))
  })
})

describe("summariesPageJson / summariesPageBcs (bodies kept per page)", () => {
  it("answer what the renderers answer, for the same page again and for an equal page", () => {
    fc.assert(
      fc.property(
        address.chain((sender) => fc.array(summary(fc.constant(sender)), { maxLength: 30 })),
        (page) => {
          expect(summariesPageJson(page)).toBe(expected(page))
          expect(summariesPageJson(page)).toBe(expected(page))
          expect(summariesPageBcs(page)).toEqual(summariesBcs(page))
          expect(summariesPageBcs(page)).toEqual(summariesBcs(page))
          const copy = page.map((s) => ({ ...s }))
          expect(summariesPageJson(copy)).toBe(expected(page))
          expect(summariesPageBcs(copy)).toEqual(summariesBcs(page))
        }
      ),
      { numRuns: 40 }
    )
  })
})
