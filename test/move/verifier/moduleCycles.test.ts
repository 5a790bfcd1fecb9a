/**
 * The cycle pass: no module depends on itself through its dependencies (CYCLIC_MODULE_DEPENDENCY),
 * nor is its own friend through its friends (CYCLIC_MODULE_FRIENDSHIP), and no dependency is a
 * friend; and the friends pass: friends at the module's own address, each once, never itself.
 */
import { describe, expect, it } from "vitest"
import type { CompiledModule } from "../../../src/move/binary/CompiledModule.js"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import { verifyFriends } from "../../../src/move/verifier/friends.js"
import { verifyModule } from "../../../src/move/verifier/index.js"
import { verifyNoCycles } from "../../../src/move/verifier/moduleCycles.js"
import { moduleOf } from "../../support/moveAssembly.js"
import { resolverOf, USER } from "./support.js"

/** `<USER>::name` naming the modules `uses` (same address) and nothing else. */
const mod = (name: string, uses: ReadonlyArray<string>, friends: ReadonlyArray<string> = []): CompiledModule =>
  moduleOf({
    moduleHandles: [name, ...uses].map((_, i) => ({ address: 0, name: i })),
    identifiers: [name, ...uses, ...friends],
    addressIdentifiers: [USER, addressFromNumber(0xf00)],
    friendDecls: friends.map((_, i) => ({ address: 0, name: 1 + uses.length + i })),
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

  it("friends: a module its own friend through friends, or a dependency that is also a friend, is refused", () => {
    const ring = [mod("a", [], ["b"]), mod("b", [], ["c"]), mod("c", [], ["a"])]
    expect(verifyModule(ring[0]!, resolverOf(ring))).toMatchObject({ status: "CYCLIC_MODULE_FRIENDSHIP" })
    // a uses b, and b is a's friend's friend.
    const overlap = [mod("a", ["b"], ["c"]), mod("b", []), mod("c", [], ["b"])]
    expect(verifyModule(overlap[0]!, resolverOf(overlap))).toMatchObject({
      status: "INVALID_FRIEND_DECL_WITH_MODULES_IN_DEPENDENCIES"
    })
    // Friends used the usual way (b calls a's friend functions: b uses a, a names b), and a friend
    // not published yet, verify.
    const usual = [mod("a", [], ["b", "later"]), mod("b", ["a"])]
    for (const m of usual) expect(verifyModule(m, resolverOf(usual))).toBeUndefined()
  })

  it("friends: itself, another address or the same friend twice are refused", () => {
    expect(verifyFriends(mod("a", [], ["a"]))).toMatchObject({ status: "INVALID_FRIEND_DECL_WITH_SELF" })
    expect(verifyFriends(mod("a", [], ["b", "b"]))).toMatchObject({ status: "DUPLICATE_ELEMENT" })
    const elsewhere = { ...mod("a", [], ["b"]) }
    const moved = { ...elsewhere, friendDecls: [{ address: 1, name: 1 }] }
    expect(verifyFriends(moved)).toMatchObject({ status: "INVALID_FRIEND_DECL_WITH_MODULES_OUTSIDE_ACCOUNT_ADDRESS" })
    expect(verifyFriends(mod("a", [], ["b", "c"]))).toBeUndefined()
  })
})
