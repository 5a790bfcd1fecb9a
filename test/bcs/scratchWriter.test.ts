import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type BcsWriter, withScratchWriter } from "../../src/bcs/index.js"

const joined = (...parts: ReadonlyArray<Uint8Array>): Uint8Array => Uint8Array.from(parts.flatMap((p) => [...p]))

describe("withScratchWriter", () => {
  it("each use starts empty, a nested use has its own writer, and copied-out bytes stay as written", () => {
    const bytes = fc.uint8Array({ maxLength: 3000 })
    fc.assert(
      fc.property(fc.array(fc.tuple(bytes, bytes, bytes), { maxLength: 5 }), (calls) => {
        const kept: Array<{ readonly got: Uint8Array; readonly want: Uint8Array }> = []
        for (const [a, b, c] of calls) {
          let inner: Uint8Array | undefined
          const outer = withScratchWriter((w) => {
            w.fixed(a)
            inner = withScratchWriter((w2) => {
              w2.fixed(b)
              return w2.toBytes()
            })
            w.fixed(c)
            // `written` is the same bytes, in place.
            expect(w.written()).toEqual(joined(a, c))
            return w.toBytes()
          })
          kept.push({ got: outer, want: joined(a, c) }, { got: inner!, want: b })
        }
        // Later uses of the same writers changed nothing already copied out.
        for (const { got, want } of kept) expect(got).toEqual(want)
      }),
      { numRuns: 50 }
    )
  })

  it("a writer is usable again after the function threw", () => {
    expect(() =>
      withScratchWriter((w) => {
        w.u8(1)
        throw new Error("boom")
      })
    ).toThrow("boom")
    expect(withScratchWriter((w) => w.u8(2).toBytes())).toEqual(Uint8Array.of(2))
  })

  it("f(w, a): the function gets its input, the same writers as the closure form", () => {
    const writeAll = (w: BcsWriter, parts: ReadonlyArray<Uint8Array>) => {
      for (const p of parts) w.fixed(p)
      return w.toBytes()
    }
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 500 }), { maxLength: 6 }), (parts) => {
        const nested = withScratchWriter((w) => {
          w.u8(7)
          const inner = withScratchWriter(writeAll, parts)
          w.fixed(inner)
          return w.toBytes()
        })
        expect(withScratchWriter(writeAll, parts)).toEqual(joined(...parts))
        expect(nested).toEqual(joined(Uint8Array.of(7), ...parts))
      }),
      { numRuns: 50 }
    )
  })
})
