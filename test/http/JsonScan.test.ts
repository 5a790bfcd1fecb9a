import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { parseJsonBody } from "../../src/http/Body.js"
import { type JsonBodyLimits, scanJsonLimits } from "../../src/http/JsonScan.js"

/** What JSON.parse builds, counted on the parsed value: every value and key; containers; depth. */
const measure = (v: unknown): { values: number; containers: number; depth: number } => {
  let values = 0
  let containers = 0
  let depth = 0
  const stack: Array<[unknown, number]> = [[v, 0]]
  while (stack.length > 0) {
    const [x, d] = stack.pop()!
    values++
    if (typeof x === "object" && x !== null) {
      containers++
      depth = Math.max(depth, d + 1)
      if (Array.isArray(x)) for (const y of x) stack.push([y, d + 1])
      else
        for (const [k, y] of Object.entries(x)) {
          values++ // the key
          void k
          stack.push([y, d + 1])
        }
    }
  }
  return { values, containers, depth }
}

const bytes = (s: string) => new TextEncoder().encode(s)

describe("scanJsonLimits", () => {
  it("admits a body exactly when what JSON.parse builds is within every limit", () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.boolean(),
        fc.record({
          maxDepth: fc.integer({ min: 0, max: 8 }),
          maxValues: fc.integer({ min: 0, max: 60 }),
          maxContainers: fc.integer({ min: 0, max: 20 })
        }),
        (v, pretty, limits: JsonBodyLimits) => {
          const text = JSON.stringify(v, null, pretty ? 2 : undefined)
          const m = measure(JSON.parse(text))
          const within =
            m.depth <= limits.maxDepth && m.values <= limits.maxValues && m.containers <= limits.maxContainers
          expect(scanJsonLimits(bytes(text), limits) === undefined, text).toBe(within)
        }
      ),
      { numRuns: 2000 }
    )
  })

  it("skips strings by JSON's escape rule (quotes and backslashes inside strings are not structure)", () => {
    const limits = { maxDepth: 1, maxValues: 4, maxContainers: 1 } // the array and its three strings
    expect(scanJsonLimits(bytes(JSON.stringify(['a\\"[[[{{', "\\\\", '"]]]'])), limits)).toBeUndefined()
    expect(scanJsonLimits(bytes(JSON.stringify(["\\", "[", "x"])), limits)).toBeUndefined()
    expect(scanJsonLimits(bytes(JSON.stringify(["\\", "[", "x", "y"])), limits)).toContain("values")
  })

  it("never throws on garbage and reports at most a short message", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        const r = scanJsonLimits(b, { maxDepth: 4, maxValues: 20, maxContainers: 5 })
        expect(r === undefined || r.length < 100).toBe(true)
      }),
      { numRuns: 2000 }
    )
  })
})

describe("parseJsonBody (the issue's 8 MB bodies)", () => {
  it("refuses 800,000 small nested arrays before parsing them, with a short 400", () => {
    const body = bytes(
      `{"function":"0x1::coin::name","type_arguments":[],"arguments":[${Array(800_000).fill("[[[[1]]]]").join(",")}]}`
    )
    const r = parseJsonBody(body)
    expect("ok" in r).toBe(false)
    if (!("ok" in r)) {
      expect(r.status).toBe(400)
      expect(r.code).toBe("web_framework_error")
      expect(r.message).toBe(
        "parse request payload error: JSON with more than 16384 arrays and objects (a limit of this node)"
      )
    }
  })
  it("refuses 4,000,000 flat numbers and 100 levels of nesting", () => {
    const flat = parseJsonBody(bytes(`[${Array(4_000_000).fill("1").join(",")}]`))
    expect("ok" in flat ? "" : flat.message).toContain("more than 32768 values")
    const deep = parseJsonBody(bytes(`${"[".repeat(100)}${"]".repeat(100)}`))
    expect("ok" in deep ? "" : deep.message).toContain("nested deeper than 64")
  })
  it("still parses a 1 MB hex argument and ordinary bodies", () => {
    const big = parseJsonBody(bytes(JSON.stringify({ arguments: ["0x1", `0x${"ab".repeat(500_000)}`] })))
    expect("ok" in big).toBe(true)
    expect(parseJsonBody(bytes('{"a":[1,2,{"b":"c"}]}'))).toEqual({ ok: true, value: { a: [1, 2, { b: "c" }] } })
  })
  it("quotes a bounded part of a JSON syntax error", () => {
    const r = parseJsonBody(bytes(`["${"x".repeat(1_000_000)}`))
    expect("ok" in r ? "" : r.message.length).toBeLessThan(400)
  })
})
