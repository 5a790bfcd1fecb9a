/**
 * The borrow graph of the reference-safety pass (the reference's `move-borrow-graph` crate, written
 * anew): which references borrow from which. A node is a reference (or the function's frame, the
 * root all locals and globals hang from); an edge `parent -> child` says that `child` was derived
 * from `parent`, labelled with the path taken (a local, a global resource type, then fields):
 *
 *  - a strong edge with path p: `child` points exactly at `parent.p` (a field borrow, a copy);
 *  - a weak edge with path p: `child` points somewhere inside `parent.p` (a vector element, a
 *    reference returned by a call, a global resource: anything reachable from there).
 *
 * What it is for: a reference may be written through, moved or destroyed only when nothing borrows
 * from it (or from the part of it the operation touches). The queries (`hasConsistentBorrows` and
 * friends) answer "is anything borrowing this, at this label?", the edits keep the graph exact
 * enough to allow the common patterns:
 *  - a strong borrow (`addStrong`) factors the parent's existing edges through the new child when
 *    the new path is a prefix of theirs (borrowing `&s.f` after `&s.f.g` makes the older reference
 *    a child of the newer one);
 *  - releasing a reference splices its parents to its children, so borrows survive the
 *    intermediate references that produced them;
 *  - joins (at control-flow merges) keep every edge either side has unless one side's weak edge
 *    already covers it.
 * Beyond ten edges between one pair of nodes the set collapses to one weak edge with the empty path
 * (borrows anything), as the reference does, so loops cannot grow the graph without bound.
 *
 * Labels are numbers (see `referenceSafetyState.ts`); paths are arrays of labels.
 */

/** At most this many edges between one parent and one child before they collapse (the reference's). */
export const MAX_EDGE_SET_SIZE = 10

export interface Edge {
  readonly strong: boolean
  readonly path: ReadonlyArray<number>
}

/** The edges from one parent to one child; `overflown` once collapsed. */
interface EdgeSet {
  edges: Edge[]
  overflown: boolean
}

interface Node {
  readonly mutable: boolean
  /** Children: who borrows from this node, and along which edges. */
  readonly borrowedBy: Map<number, EdgeSet>
  /** Parents: whom this node borrows from (the mirror of the parents' `borrowedBy`). */
  readonly borrowsFrom: Set<number>
}

/** Thrown on a broken invariant (an unknown id, a self loop); the pass refuses rather than crash. */
export class GraphInvariant extends Error {}

const samePath = (a: ReadonlyArray<number>, b: ReadonlyArray<number>): boolean => {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** `prefix` is a prefix of `path` (the reference's `paths::leq`). */
export const isPrefix = (prefix: ReadonlyArray<number>, path: ReadonlyArray<number>): boolean => {
  if (prefix.length > path.length) return false
  for (let i = 0; i < prefix.length; i++) if (prefix[i] !== path[i]) return false
  return true
}

const sameEdge = (a: Edge, b: Edge): boolean => a.strong === b.strong && samePath(a.path, b.path)

/** `a` covers `b`: equal, or weak with a prefix of `b`'s path (anything `b` reaches, `a` may too). */
const covers = (a: Edge, b: Edge): boolean => sameEdge(a, b) || (!a.strong && isPrefix(a.path, b.path))

const insertEdge = (set: EdgeSet, edge: Edge): void => {
  if (set.overflown) return
  // The reference counts before looking for a duplicate: an eleventh insert collapses the set.
  if (set.edges.length + 1 > MAX_EDGE_SET_SIZE) {
    set.edges = [{ strong: false, path: [] }]
    set.overflown = true
    return
  }
  if (!set.edges.some((e) => sameEdge(e, edge))) set.edges.push(edge)
}

export class BorrowGraph {
  private constructor(private readonly nodes: Map<number, Node>) {}

  static empty(): BorrowGraph {
    return new BorrowGraph(new Map())
  }

  clone(): BorrowGraph {
    const nodes = new Map<number, Node>()
    for (const [id, n] of this.nodes) {
      const borrowedBy = new Map<number, EdgeSet>()
      for (const [c, s] of n.borrowedBy) borrowedBy.set(c, { edges: s.edges.slice(), overflown: s.overflown })
      nodes.set(id, { mutable: n.mutable, borrowedBy, borrowsFrom: new Set(n.borrowsFrom) })
    }
    return new BorrowGraph(nodes)
  }

  private node(id: number): Node {
    const n = this.nodes.get(id)
    if (n === undefined) throw new GraphInvariant(`reference ${id} is not in the borrow graph`)
    return n
  }

  has(id: number): boolean {
    return this.nodes.has(id)
  }

  /** Nodes plus edges: what the reference's meter charges per graph item. */
  size(): number {
    let n = 0
    for (const node of this.nodes.values()) {
      n++
      for (const s of node.borrowedBy.values()) n += s.edges.length
    }
    return n
  }

  isMutable(id: number): boolean {
    return this.node(id).mutable
  }

  newRef(id: number, mutable: boolean): void {
    if (this.nodes.has(id)) throw new GraphInvariant(`reference ${id} exists`)
    this.nodes.set(id, { mutable, borrowedBy: new Map(), borrowsFrom: new Set() })
  }

  /** Any edge out of `id` with an empty path: something borrows all of it. */
  hasFullBorrows(id: number): boolean {
    for (const s of this.node(id).borrowedBy.values()) for (const e of s.edges) if (e.path.length === 0) return true
    return false
  }

  /**
   * Something borrows `id` in a way that conflicts with touching `label` of it: a full borrow, or a
   * borrow whose path starts with `label` (with `label` undefined: any borrow at all). `mutableOnly`
   * counts only borrowers that are mutable references.
   */
  hasConsistentBorrows(id: number, label: number | undefined, mutableOnly: boolean): boolean {
    for (const [child, s] of this.node(id).borrowedBy) {
      if (mutableOnly && !this.node(child).mutable) continue
      for (const e of s.edges) if (label === undefined || e.path.length === 0 || e.path[0] === label) return true
    }
    return false
  }

  private addEdge(parent: number, edge: Edge, child: number): void {
    if (parent === child) throw new GraphInvariant("self borrow")
    const p = this.node(parent)
    let set = p.borrowedBy.get(child)
    if (set === undefined) p.borrowedBy.set(child, (set = { edges: [], overflown: false }))
    insertEdge(set, edge)
    this.node(child).borrowsFrom.add(parent)
  }

  /** A weak edge: `child` borrows somewhere inside `parent.path`. */
  addWeak(parent: number, path: ReadonlyArray<number>, child: number): void {
    this.addEdge(parent, { strong: false, path }, child)
  }

  /**
   * A strong edge: `child` is exactly `parent.path`. The parent's edges whose paths extend `path`
   * now go through `child` (with the rest of their path), the reference's `factor`.
   */
  addStrong(parent: number, path: ReadonlyArray<number>, child: number): void {
    const p = this.node(parent)
    const moved: Array<[number, Edge]> = []
    for (const [c, s] of p.borrowedBy) {
      const kept: Edge[] = []
      for (const e of s.edges) {
        if (isPrefix(path, e.path)) moved.push([c, e])
        else kept.push(e)
      }
      if (kept.length === s.edges.length) continue
      if (kept.length === 0) {
        p.borrowedBy.delete(c)
        this.node(c).borrowsFrom.delete(parent)
      } else s.edges = kept
    }
    for (const [c, e] of moved) this.addEdge(child, { strong: e.strong, path: e.path.slice(path.length) }, c)
    this.addEdge(parent, { strong: true, path }, child)
  }

  /** Removes `id`, connecting each of its parents to each of its children (the reference's `release`). */
  release(id: number): void {
    const n = this.node(id)
    this.nodes.delete(id)
    for (const parent of n.borrowsFrom) {
      const p = this.node(parent)
      const toMe = p.borrowedBy.get(id)
      p.borrowedBy.delete(id)
      if (toMe === undefined) continue
      for (const pe of toMe.edges)
        for (const [child, s] of n.borrowedBy) {
          // Releasing a node on a cycle adds no self loop.
          if (child === parent) continue
          for (const ce of s.edges) {
            // Past a weak edge the exact place is unknown: the weak edge's path is all that is kept.
            const path = pe.strong ? [...pe.path, ...ce.path] : pe.path
            this.addEdge(parent, { strong: pe.strong && ce.strong, path }, child)
          }
        }
    }
    for (const child of n.borrowedBy.keys()) this.nodes.get(child)?.borrowsFrom.delete(id)
  }

  /** Edges of `other` that no edge of this graph covers, as [parent, edge, child]. */
  private unmatched(other: BorrowGraph): Array<[number, Edge, number]> {
    const out: Array<[number, Edge, number]> = []
    for (const [parent, on] of other.nodes) {
      const mine = this.nodes.get(parent)?.borrowedBy
      for (const [child, s] of on.borrowedBy) {
        const candidates = mine?.get(child)?.edges
        for (const e of s.edges)
          if (candidates === undefined || !candidates.some((c) => covers(c, e))) out.push([parent, e, child])
      }
    }
    return out
  }

  /** Every edge of `other` is covered by one of this graph (this graph says at least as much). */
  covers(other: BorrowGraph): boolean {
    return this.unmatched(other).length === 0
  }

  /** This graph plus the edges of `other` it does not cover; both hold the same nodes. */
  join(other: BorrowGraph): BorrowGraph {
    const joined = this.clone()
    for (const [parent, e, child] of this.unmatched(other)) {
      if (!joined.nodes.has(parent) || !joined.nodes.has(child))
        throw new GraphInvariant("joined graphs differ in nodes")
      joined.addEdge(parent, e, child)
    }
    return joined
  }

  /** The same graph with ids renamed by `map` (ids not in it keep theirs); the renaming must be one-to-one. */
  remap(map: ReadonlyMap<number, number>): BorrowGraph {
    const rename = (id: number): number => map.get(id) ?? id
    const nodes = new Map<number, Node>()
    for (const [id, n] of this.nodes) {
      const borrowedBy = new Map<number, EdgeSet>()
      for (const [c, s] of n.borrowedBy) borrowedBy.set(rename(c), { edges: s.edges.slice(), overflown: s.overflown })
      const borrowsFrom = new Set<number>()
      for (const p of n.borrowsFrom) borrowsFrom.add(rename(p))
      const to = rename(id)
      if (nodes.has(to)) throw new GraphInvariant("renaming is not one-to-one")
      nodes.set(to, { mutable: n.mutable, borrowedBy, borrowsFrom })
    }
    return new BorrowGraph(nodes)
  }

  /** The ids in the graph. */
  ids(): IterableIterator<number> {
    return this.nodes.keys()
  }
}
