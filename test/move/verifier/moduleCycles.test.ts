/** The cycle pass: no module depends on itself through its dependencies (CYCLIC_MODULE_DEPENDENCY). */
import { describe, expect, it } from "vitest"
import type { CompiledModule } from "../../../src/move/binary/CompiledModule.js"
import { verifyModule } from "../../../src/move/verifier/index.js"
import { verifyNoCycles } from "../../../src/move/verifier/moduleCycles.js"
import { moduleOf } from "../../support/moveAssembly.js"
import { resolverOf, USER } from "./support.js"

/** `<USER>::name` naming the modules `uses` (same address) and nothing else. */
const mod = (name: string, uses: ReadonlyArray<string>): CompiledModule =>
  moduleOf({
    moduleHandles: [name, ...uses].map((_, i) => ({ address: 0, name: i })),
    identifiers: [name, ...uses],
    addressIdentifiers: [USER],
    functionHandles: [],
    signatures: []
  })

describe("module cycles", () => {
  it("two modules using each other, and three in a ring, are refused", () => {
    const pair = [mod("a", ["b"]), mod("b", ["a"])]
    expect(verifyNoCycles(pair[0]!, resolverOf(pair))).toMatchObject({ status: "CYCLIC_MODULE_DEPENDENCY" })
    const ring = [mod("a", ["b"]), mod("b", ["c"]), mod("c", ["a"])]
    expect(verifyModule(ring[1]!, resolverOf(ring))).toMatchObject({ status: "CYCLIC_MODULE_DEPENDENCY" })
  })

  it("a diamond (two paths to one module) and a chain are not cycles", () => {
    const diamond = [mod("a", ["b", "c"]), mod("b", ["d"]), mod("c", ["d"]), mod("d", [])]
    for (const m of diamond) expect(verifyModule(m, resolverOf(diamond))).toBeUndefined()
  })

  it("a cycle elsewhere in the graph, not through the module, is not its fault (and the walk ends)", () => {
    const graph = [mod("a", ["b"]), mod("b", ["c"]), mod("c", ["b"])]
    expect(verifyNoCycles(graph[0]!, resolverOf(graph))).toBeUndefined()
  })
})
