/**
 * No generic function of a module can, through calls within the module, instantiate itself with
 * ever larger types (the reference's `InstantiationLoopChecker`, LOOP_IN_INSTANTIATION_GRAPH):
 * `fun f<T>() { f<vector<T>>() }` is refused at publish even though it would stop at run time.
 *
 * The graph: a node per type parameter of each function defined here; a generic call (or a
 * closure packed over a generic function) from `f` to `g`, both defined here, adds for each of
 * `g`'s type arguments an edge from every type parameter of `f` it mentions — plain ("identity")
 * when the argument is that type parameter itself, growing when it is a type built around it. A
 * strongly connected component holding a growing edge is a loop in which a type can grow without
 * end. Calls to other modules cannot close a loop: modules do not depend on each other in cycles.
 *
 * Why we check it (the interpreter bounds every type at 256 nodes and 64 levels anyway): a package
 * that passes here would be refused when published to a network.
 */
import type { CompiledModule } from "../binary/CompiledModule.js"
import { Opcode } from "../binary/Opcode.js"
import { innerTokens, type SignatureToken } from "../binary/SignatureToken.js"
import type { VerifyFailure } from "./VerifyFailure.js"

interface Edge {
  readonly to: number
  readonly grows: boolean
}

/** The type parameters `t` mentions. */
const typeParametersIn = (t: SignatureToken, out: Set<number>): Set<number> => {
  const stack: SignatureToken[] = [t]
  for (let x = stack.pop(); x !== undefined; x = stack.pop()) {
    if (x._tag === "TypeParameter") out.add(x.index)
    else stack.push(...innerTokens(x))
  }
  return out
}

export const verifyInstantiationLoops = (m: CompiledModule): VerifyFailure | undefined => {
  // Node ids: the first type parameter of each definition, then one per parameter.
  const defOfHandle = new Map<number, number>()
  const firstNode: number[] = []
  let nodes = 0
  for (let d = 0; d < m.functionDefs.length; d++) {
    const def = m.functionDefs[d]!
    defOfHandle.set(def.function, d)
    firstNode.push(nodes)
    nodes += m.functionHandles[def.function]!.typeParameters.length
  }
  const edges: Edge[][] = Array.from({ length: nodes }, () => [])
  for (let d = 0; d < m.functionDefs.length; d++) {
    const code = m.functionDefs[d]!.code?.code
    if (code === undefined) continue
    for (const ins of code) {
      if (ins.op !== Opcode.CallGeneric && ins.op !== Opcode.PackClosureGeneric) continue
      const inst = m.functionInstantiations[(ins as { index: number }).index]!
      const callee = defOfHandle.get(inst.handle)
      if (callee === undefined) continue
      const args = m.signatures[inst.typeParameters]!
      const own = m.functionHandles[m.functionDefs[d]!.function]!.typeParameters.length
      const calleeOwn = m.functionHandles[inst.handle]!.typeParameters.length
      // Counts that do not match are type safety's refusals (it runs next); no edge for them.
      for (let j = 0; j < Math.min(args.length, calleeOwn); j++) {
        const a = args[j]!
        const to = firstNode[callee]! + j
        if (a._tag === "TypeParameter") {
          if (a.index < own) edges[firstNode[d]! + a.index]!.push({ to, grows: false })
        } else
          for (const p of typeParametersIn(a, new Set()))
            if (p < own) edges[firstNode[d]! + p]!.push({ to, grows: true })
      }
    }
  }
  const component = stronglyConnected(edges)
  for (let from = 0; from < nodes; from++)
    for (const e of edges[from]!)
      if (e.grows && component[from] === component[e.to]) {
        const fn = (node: number): string => {
          let d = firstNode.length - 1
          while (firstNode[d]! > node) d--
          return m.identifiers[m.functionHandles[m.functionDefs[d]!.function]!.name]!
        }
        return {
          status: "LOOP_IN_INSTANTIATION_GRAPH",
          message: `${fn(from)} instantiates ${fn(e.to)} with a type grown from its own type parameter, in a loop`
        }
      }
  return undefined
}

/** Tarjan's strongly connected components, iteratively: the component number of each node. */
const stronglyConnected = (edges: ReadonlyArray<ReadonlyArray<Edge>>): Int32Array => {
  const n = edges.length
  const index = new Int32Array(n).fill(-1)
  const low = new Int32Array(n)
  const component = new Int32Array(n).fill(-1)
  const onStack = new Uint8Array(n)
  const stack: number[] = []
  let nextIndex = 0
  let components = 0
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue
    const path: Array<{ readonly node: number; next: number }> = [{ node: root, next: 0 }]
    index[root] = low[root] = nextIndex++
    stack.push(root)
    onStack[root] = 1
    while (path.length > 0) {
      const top = path[path.length - 1]!
      const out = edges[top.node]!
      if (top.next < out.length) {
        const to = out[top.next++]!.to
        if (index[to] === -1) {
          index[to] = low[to] = nextIndex++
          stack.push(to)
          onStack[to] = 1
          path.push({ node: to, next: 0 })
        } else if (onStack[to] === 1) low[top.node] = Math.min(low[top.node]!, index[to]!)
        continue
      }
      path.pop()
      const parent = path[path.length - 1]
      if (parent !== undefined) low[parent.node] = Math.min(low[parent.node]!, low[top.node]!)
      if (low[top.node] === index[top.node]) {
        for (;;) {
          const x = stack.pop()!
          onStack[x] = 0
          component[x] = components
          if (x === top.node) break
        }
        components++
      }
    }
  }
  return component
}
