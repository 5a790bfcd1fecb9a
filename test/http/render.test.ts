import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { moduleJson } from "../../src/http/Render.js"

// moduleJson caches rendered bodies by ABI text; a cached body must never be served for other bytes.

const expected = (bytecode: Uint8Array, abiJson: string) =>
  `{"bytecode":"0x${Buffer.from(bytecode).toString("hex")}","abi":${abiJson}}`
const text = (b: Uint8Array) => Buffer.from(b).toString("utf8")

describe("moduleJson", () => {
  it("renders bytecode hex and the ABI text, again identically from the cache", () => {
    const abiJson = `{"address":"0x1","name":"render_a","friends":[]}`
    const bytecode = new Uint8Array([0xa1, 0x1c, 0xeb, 0x0b, 1, 2, 3])
    const first = moduleJson({ bytecode, abiJson })
    expect(text(first)).toBe(expected(bytecode, abiJson))
    expect(text(moduleJson({ bytecode: bytecode.slice(), abiJson }))).toBe(expected(bytecode, abiJson))
  })

  it("same ABI, other bytecode (an upgrade that keeps the ABI): the new bytes are rendered", () => {
    const abiJson = `{"address":"0x1","name":"render_b","friends":[]}`
    const v1 = new Uint8Array([1, 2, 3, 4])
    const v2 = new Uint8Array([1, 2, 3, 5])
    expect(text(moduleJson({ bytecode: v1, abiJson }))).toBe(expected(v1, abiJson))
    expect(text(moduleJson({ bytecode: v2, abiJson }))).toBe(expected(v2, abiJson))
    expect(text(moduleJson({ bytecode: v1, abiJson }))).toBe(expected(v1, abiJson))
  })

  it("the cache keeps its own copy: changing the caller's bytes later changes nothing", () => {
    const abiJson = `{"address":"0x1","name":"render_c","friends":[]}`
    const bytes = new Uint8Array([9, 9, 9])
    moduleJson({ bytecode: bytes, abiJson })
    bytes[0] = 8
    expect(text(moduleJson({ bytecode: bytes, abiJson }))).toBe(expected(bytes, abiJson))
  })

  it("any sequence of (bytecode, ABI) requests renders exactly its own pair", () => {
    const abi = fc.constantFrom(`{"n":"x"}`, `{"n":"y"}`, `{"n":"é"}`)
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.uint8Array({ maxLength: 8 }), abi), { maxLength: 40 }), (requests) => {
        for (const [bytecode, abiJson] of requests)
          expect(text(moduleJson({ bytecode, abiJson }))).toBe(expected(bytecode, abiJson))
      })
    )
  })
})
