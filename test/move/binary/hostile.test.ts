import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { moduleAbi } from "../../../src/move/abi/moduleAbi.js"
import { BinaryCursor } from "../../../src/move/binary/BinaryCursor.js"
import { BinaryError } from "../../../src/move/binary/BinaryError.js"
import { deserializeModule, deserializeScript } from "../../../src/move/binary/deserialize.js"
import { LEGACY_IDENTIFIER_SIZE_MAX } from "../../../src/move/binary/limits.js"
import { readIdentifier } from "../../../src/move/binary/readIdentifier.js"
import { serializeModule, serializeScript } from "../../../src/move/binary/serialize.js"
import { genesisNamesPresent } from "../../support/genesis.js"
import { genesisModuleBytes } from "./support.js"

const samples = genesisNamesPresent().flatMap(genesisModuleBytes)

/**
 * The property every input must satisfy: either a typed BinaryError, or a module that serializes,
 * reads back to the same model, and yields an ABI. Nothing may throw.
 */
const holds = (bytes: Uint8Array): void => {
  const r = deserializeModule(bytes)
  if (Result.isFailure(r)) {
    expect(r.failure).toBeInstanceOf(BinaryError)
    expect(r.failure.offset).toBeLessThanOrEqual(bytes.length)
    return
  }
  const again = deserializeModule(serializeModule(r.success))
  expect(Result.isSuccess(again) && again.success).toEqual(r.success)
  moduleAbi(r.success)
}

const holdsScript = (bytes: Uint8Array): void => {
  const r = deserializeScript(bytes)
  if (Result.isFailure(r)) {
    expect(r.failure).toBeInstanceOf(BinaryError)
    return
  }
  expect(Result.getOrThrow(deserializeScript(serializeScript(r.success)))).toEqual(r.success)
}

const sample = fc.integer({ min: 0, max: samples.length - 1 }).map((i) => samples[i]!)

describe("hostile input", () => {
  it("survives bit flips in real modules", () => {
    fc.assert(
      fc.property(
        sample,
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 7 })), { minLength: 1, maxLength: 8 }),
        (b, flips) => {
          const bytes = b.slice()
          for (const [pos, bit] of flips) bytes[pos % bytes.length]! ^= 1 << bit
          holds(bytes)
        }
      ),
      { numRuns: 1500 }
    )
  })

  it("survives truncation and extension", () => {
    fc.assert(
      fc.property(sample, fc.nat(), fc.uint8Array({ maxLength: 64 }), (b, cut, tail) => {
        holds(b.subarray(0, cut % (b.length + 1)))
        const longer = new Uint8Array(b.length + tail.length)
        longer.set(b)
        longer.set(tail, b.length)
        holds(longer)
      }),
      { numRuns: 500 }
    )
  })

  it("survives random byte splices", () => {
    fc.assert(
      fc.property(sample, fc.nat(), fc.nat({ max: 16 }), fc.uint8Array({ maxLength: 16 }), (b, at, remove, insert) => {
        const p = at % b.length
        const bytes = new Uint8Array(b.length - Math.min(remove, b.length - p) + insert.length)
        bytes.set(b.subarray(0, p))
        bytes.set(insert, p)
        bytes.set(b.subarray(p + Math.min(remove, b.length - p)), p + insert.length)
        holds(bytes)
      }),
      { numRuns: 1500 }
    )
  })

  it("survives pure garbage, with and without a valid header", () => {
    const headers = [
      Uint8Array.of(0xa1, 0x1c, 0xeb, 0x0b, 0x0a, 0, 0, 0x0a),
      Uint8Array.of(0xa1, 0x1c, 0xeb, 0x0b, 5, 0, 0, 0)
    ]
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.integer({ min: 0, max: 2 }), (garbage, h) => {
        const bytes = h === 2 ? garbage : new Uint8Array([...headers[h]!, ...garbage])
        holds(bytes)
        holdsScript(bytes)
      }),
      { numRuns: 3000 }
    )
  })
})

describe("readIdentifier on a 65,535-byte legacy identifier", () => {
  it("reads it without spreading its bytes as call arguments, and quotes a bounded prefix when invalid", () => {
    const n = 65_535
    const bytes = new Uint8Array(3 + n).fill(0x61)
    bytes.set([0xff, 0xff, 0x03]) // uleb128(65535)
    expect(readIdentifier(new BinaryCursor(bytes, 0, bytes.length, 6), LEGACY_IDENTIFIER_SIZE_MAX)).toHaveLength(n)
    bytes[bytes.length - 1] = 0x2d // "-": invalid
    const e = (() => {
      try {
        readIdentifier(new BinaryCursor(bytes, 0, bytes.length, 6), LEGACY_IDENTIFIER_SIZE_MAX)
      } catch (x) {
        return x as { message: string }
      }
    })()
    expect(e?.message).toContain("(65535 characters)")
    expect(e!.message.length).toBeLessThan(400)
  })
})
