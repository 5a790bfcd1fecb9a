/**
 * The loops of a function body must be reducible — every loop entered only through its head, the
 * one block of it that dominates the rest — and nested at most `MAX_LOOP_DEPTH` deep; a module
 * function has at most `MAX_BASIC_BLOCKS` blocks. The reference's control-flow rules for bytecode
 * v6 and up (its `verify_reducibility`, after Tarjan, "Testing flow graph reducibility", 1974,
 * and the code-unit verifier's block limit), with Aptos's production limits.
 *
 * Why: the flow-sensitive passes reach their fixpoint in a number of rounds that grows with the
 * loops' nesting when loops have one entry each; a body that jumps into the middle of a loop
 * (which no compiler emits) is refused as the reference refuses it, with INVALID_LOOP_SPLIT.
 *
 * How (our own code for the algorithm): a depth-first walk from the entry numbers the blocks in
 * preorder, so a block's descendants in the walk's tree are the numbers right after it; an edge to
 * a block still on the walk's path is a back edge, its target a loop head. Heads are taken
 * innermost first (reverse preorder): the loop's body is what reaches a back edge's source going
 * backwards without passing the head, and every such block must be a descendant of the head —
 * otherwise the loop has a second entry. The body is then collapsed into its head (a union-find),
 * whose depth is one more than the deepest loop collapsed into it.
 */
import type { ControlFlowGraph } from "./controlFlowGraph.js"
import type { VerifyFailure } from "./VerifyFailure.js"

export const MAX_LOOP_DEPTH = 5
export const MAX_BASIC_BLOCKS = 1024

/** Why the loops of `cfg` are refused (at the offending block's first instruction), or undefined. */
export const loopFailure = (cfg: ControlFlowGraph): Omit<VerifyFailure, "functionDef"> | undefined => {
  const blocks = cfg.starts.length
  // The walk: node ids in preorder; `nodeOf[block]` is -1 until the block is reached.
  const nodeOf = new Int32Array(blocks).fill(-1)
  const onPath = new Uint8Array(blocks)
  const blockOf: number[] = []
  const descendants: number[] = []
  const backSources: number[][] = []
  const predecessors: number[][] = []
  const path: Array<{ readonly block: number; readonly node: number; next: number }> = []
  const reach = (block: number, parent: number): void => {
    const node = blockOf.length
    nodeOf[block] = node
    onPath[block] = 1
    blockOf.push(block)
    descendants.push(0)
    backSources.push([])
    predecessors.push(parent < 0 ? [] : [parent])
    path.push({ block, node, next: 0 })
  }
  reach(0, -1)
  while (path.length > 0) {
    const top = path[path.length - 1]!
    const successors = cfg.successors[top.block]!
    if (top.next < successors.length) {
      const to = successors[top.next++]!
      if (nodeOf[to] === -1) reach(to, top.node)
      else if (onPath[to] === 1) backSources[nodeOf[to]!]!.push(top.node)
      else predecessors[nodeOf[to]!]!.push(top.node)
      continue
    }
    path.pop()
    onPath[top.block] = 0
    const parent = path[path.length - 1]
    if (parent !== undefined) descendants[parent.node]! += 1 + descendants[top.node]!
  }

  const nodes = blockOf.length
  const headOf = Int32Array.from({ length: nodes }, (_, i) => i)
  const depth = new Int32Array(nodes)
  const find = (node: number): number => {
    let root = node
    while (headOf[root] !== root) root = headOf[root]!
    for (let n = node; headOf[n] !== root; ) {
      const up = headOf[n]!
      headOf[n] = root
      n = up
    }
    return root
  }
  for (let head = nodes - 1; head >= 0; head--) {
    const back = backSources[head]!
    if (back.length === 0) continue
    const body = new Set<number>()
    for (const source of back) {
      const n = find(source)
      if (n !== head) body.add(n)
    }
    const frontier = [...body]
    for (let node = frontier.pop(); node !== undefined; node = frontier.pop()) {
      for (const p of predecessors[node]!) {
        const pred = find(p)
        if (pred < head || pred > head + descendants[head]!)
          return {
            status: "INVALID_LOOP_SPLIT",
            message: "a loop is entered other than through its head",
            offset: cfg.starts[blockOf[pred]!]
          }
        if (pred !== head && !body.has(pred)) {
          body.add(pred)
          frontier.push(pred)
        }
      }
    }
    let d = depth[head]!
    for (const n of body) {
      headOf[n] = head
      d = Math.max(d, depth[n]!)
    }
    depth[head] = ++d
    if (d > MAX_LOOP_DEPTH)
      return {
        status: "LOOP_MAX_DEPTH_REACHED",
        message: `loops nested ${d} deep (at most ${MAX_LOOP_DEPTH})`,
        offset: cfg.starts[blockOf[head]!]
      }
  }
  return undefined
}
