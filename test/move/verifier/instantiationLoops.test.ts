/**
 * Instantiation loops (`instantiationLoops.ts`): a generic function instantiating itself, directly
 * or through others of its module, with a type grown from its own type parameter is refused; plain
 * recursion is not. On random call graphs the verdict is an oracle's: some growing edge `u → v`
 * with a path back from `v` to `u` (breadth-first search instead of strongly connected components).
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { Instruction } from "../../../src/move/binary/CompiledModule.js"
import { Opcode } from "../../../src/move/binary/Opcode.js"
import { primitiveTokens as P, type SignatureToken } from "../../../src/move/binary/SignatureToken.js"
import { verifyInstantiationLoops } from "../../../src/move/verifier/instantiationLoops.js"
import { functionHandle, ix, moduleOf, op } from "../../support/moveAssembly.js"
import { USER } from "./support.js"

const T = (index: number): SignatureToken => ({ _tag: "TypeParameter", index })
const vec = (element: SignatureToken): SignatureToken => ({ _tag: "Vector", element })

/** A call from function `from` to `to` with these type arguments. */
interface Call {
  readonly from: number
  readonly to: number
  readonly args: ReadonlyArray<SignatureToken>
}

/** Functions `f0…` with `typeParameters[i]` type parameters each, making `calls` (then Ret). */
const moduleWith = (typeParameters: ReadonlyArray<number>, calls: ReadonlyArray<Call>) => {
  const code: Instruction[][] = typeParameters.map(() => [])
  for (const [k, c] of calls.entries()) code[c.from]!.push(ix(Opcode.CallGeneric, k))
  return moduleOf({
    moduleHandles: [{ address: 0, name: 0 }],
    functionHandles: typeParameters.map((n, i) =>
      functionHandle(
        0,
        1 + i,
        0,
        0,
        Array.from({ length: n }, () => 0)
      )
    ),
    functionInstantiations: calls.map((c, k) => ({ handle: c.to, typeParameters: 1 + k })),
    signatures: [[], ...calls.map((c) => [...c.args])],
    identifiers: ["m", ...typeParameters.map((_, i) => `f${i}`)],
    addressIdentifiers: [USER],
    functionDefs: code.map((body, i) => ({
      function: i,
      visibility: 0,
      isEntry: false,
      acquiresGlobalResources: [],
      code: { locals: 0, code: [...body, op(Opcode.Ret)] }
    }))
  })
}

describe("instantiation loops", () => {
  it("f<T> calling f<vector<T>> is refused; f<T> calling f<T>, or f<u64>, is not", () => {
    expect(verifyInstantiationLoops(moduleWith([1], [{ from: 0, to: 0, args: [vec(T(0))] }]))).toMatchObject({
      status: "LOOP_IN_INSTANTIATION_GRAPH"
    })
    expect(verifyInstantiationLoops(moduleWith([1], [{ from: 0, to: 0, args: [T(0)] }]))).toBeUndefined()
    expect(verifyInstantiationLoops(moduleWith([1], [{ from: 0, to: 0, args: [vec(P.U64)] }]))).toBeUndefined()
  })

  it("through another function: f0<T> → f1<vector<T>> → f0<T> is refused; without the way back it is not", () => {
    const there = { from: 0, to: 1, args: [vec(T(0))] }
    expect(verifyInstantiationLoops(moduleWith([1, 1], [there, { from: 1, to: 0, args: [T(0)] }]))).toMatchObject({
      status: "LOOP_IN_INSTANTIATION_GRAPH"
    })
    expect(verifyInstantiationLoops(moduleWith([1, 1], [there]))).toBeUndefined()
    // Swapping type parameters in a loop does not grow anything.
    expect(verifyInstantiationLoops(moduleWith([2], [{ from: 0, to: 0, args: [T(1), T(0)] }]))).toBeUndefined()
  })

  it("on random call graphs the verdict is the oracle's", () => {
    const arg = (params: number) =>
      fc.oneof(
        fc.integer({ min: 0, max: params - 1 }).map(T),
        fc.integer({ min: 0, max: params - 1 }).map((i) => vec(T(i))),
        fc.constant(P.U64)
      )
    const graph = fc.array(fc.integer({ min: 1, max: 2 }), { minLength: 1, maxLength: 4 }).chain((tps) =>
      fc
        .array(
          fc
            .tuple(fc.integer({ min: 0, max: tps.length - 1 }), fc.integer({ min: 0, max: tps.length - 1 }))
            .chain(([from, to]) =>
              fc
                .array(arg(tps[from]!), { minLength: tps[to]!, maxLength: tps[to]! })
                .map((args) => ({ from, to, args }))
            ),
          { maxLength: 6 }
        )
        .map((calls) => ({ tps, calls }))
    )
    let loops = 0
    fc.assert(
      fc.property(graph, ({ tps, calls }) => {
        // Nodes "function/parameter"; edges as the module defines them.
        const edges: Array<{ from: string; to: string; grows: boolean }> = []
        for (const c of calls)
          c.args.forEach((a, j) => {
            const to = `${c.to}/${j}`
            if (a._tag === "TypeParameter") edges.push({ from: `${c.from}/${a.index}`, to, grows: false })
            else if (a._tag === "Vector" && a.element._tag === "TypeParameter")
              edges.push({ from: `${c.from}/${a.element.index}`, to, grows: true })
          })
        const reaches = (from: string, to: string): boolean => {
          const seen = new Set([from])
          const queue = [from]
          for (let x = queue.shift(); x !== undefined; x = queue.shift()) {
            if (x === to) return true
            for (const e of edges)
              if (e.from === x && !seen.has(e.to)) {
                seen.add(e.to)
                queue.push(e.to)
              }
          }
          return false
        }
        const loop = edges.some((e) => e.grows && reaches(e.to, e.from))
        if (loop) loops++
        expect(verifyInstantiationLoops(moduleWith(tps, calls)) !== undefined).toBe(loop)
      }),
      { numRuns: 2000, seed: 0x1007 }
    )
    expect(loops).toBeGreaterThan(100)
  })
})
