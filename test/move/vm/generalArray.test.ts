/**
 * The arrays the interpreter's loop receives from many places (a call's arguments, a closure
 * call's, a global value's box; src/move/vm/Value.ts): the same values as given, in a copy, and — the reason they
 * exist — always one hidden class in V8, whatever they hold and however the given array was made.
 * The hidden class is checked in a child process with V8's native syntax (`%HaveSameMap`), over
 * the compiled module (`dist/`, built by `npm test` before vitest runs), interpreted and optimized.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { generalArray, generalBox, StructValue, type Value } from "../../../src/move/vm/Value.js"
import { distModule, runWithNativeSyntax } from "../../support/nativeSyntax.js"

const value: fc.Arbitrary<Value> = fc.oneof(
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.bigInt(),
  fc.constant(undefined),
  fc.uint8Array({ maxLength: 4 }),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.constant(new StructValue(-1, [1n]))
)

describe("generalArray, generalArrayOfLength and generalBox", () => {
  it("copy the values given, in order, holes read as undefined", () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 8 }), fc.nat(8), (values, hole) => {
        const given = [...values]
        if (hole < given.length) delete given[hole]
        const out = generalArray(given)
        expect(out.length).toBe(given.length)
        for (let i = 0; i < given.length; i++) expect(Object.is(out[i], given[i])).toBe(true)
        out.push(1)
        expect(given.length).toBe(values.length)
      })
    )
    fc.assert(
      fc.property(value, (v) => {
        const box = generalBox(v)
        expect(box.length).toBe(1)
        expect(Object.is(box[0], v)).toBe(true)
      })
    )
  })

  it("are always of one hidden class, interpreted and optimized, and stay so when written", () => {
    const valueJs = distModule("move/vm/Value.js")
    const script = `
      const { generalArray, generalArrayOfLength, generalBox, StructValue } = await import(${JSON.stringify(valueJs)})
      const inputs = [[], [1], [1.5], [2 ** 40], [true], [undefined], [1n], [new StructValue(-1, [])],
        [1, 2, 3], [1, {}, 2.5], new Array(3), Array.from({ length: 5 }, (_, i) => i)]
      const reference = generalArray([new StructValue(-1, [])])
      let differ = 0
      const check = (a) => { if (!%HaveSameMap(a, reference)) differ++ };
      %PrepareFunctionForOptimization(generalArray);
      %PrepareFunctionForOptimization(generalBox);
      %PrepareFunctionForOptimization(generalArrayOfLength);
      for (let round = 0; round < 3; round++) {
        for (const input of inputs) {
          const a = generalArray(input)
          check(a)
          a[0] = 7; a.push(1.5); check(a)
          const filled = generalArrayOfLength(input.length)
          check(filled)
          for (let i = 0; i < input.length; i++) filled[i] = input[i]
          check(filled)
          for (const v of input.length > 0 ? input : [undefined]) {
            const box = generalBox(v)
            check(box)
            box[0] = 0.5; box[0] = undefined; check(box)
          }
        }
        if (round === 0) { %OptimizeFunctionOnNextCall(generalArray); %OptimizeFunctionOnNextCall(generalBox); %OptimizeFunctionOnNextCall(generalArrayOfLength) }
      }
      console.log(JSON.stringify({ differ }))
    `
    const run = runWithNativeSyntax(script)
    expect(run.stderr).toBe("")
    expect(run.output).toEqual({ differ: 0 })
  })
})
