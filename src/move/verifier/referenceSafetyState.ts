/**
 * The abstract state of the reference-safety pass (the reference's `reference_safety/
 * abstract_state.rs`, written anew): what each local holds (a value, or a reference and which one)
 * and the borrow graph (`referenceSafetyBorrowGraph.ts`) relating references to each other and to
 * the function's frame. Each instruction that creates, uses or destroys a reference is an entry
 * point here and refuses, with the reference's status, what would let a reference outlive or
 * alias what it points to:
 *
 *  - a local may not be moved (MOVELOC_EXISTS_BORROW_ERROR) or overwritten
 *    (STLOC_UNSAFE_TO_DESTROY_ERROR) while borrowed, nor copied (COPYLOC_EXISTS_BORROW_ERROR) or
 *    borrowed immutably (BORROWLOC_EXISTS_BORROW_ERROR) while mutably borrowed: the dangling
 *    reference of a moved `Coin` is exactly the first;
 *  - a mutable reference may not be written through (WRITEREF_EXISTS_BORROW_ERROR), passed to a
 *    call (CALL_BORROWED_MUTABLE_REFERENCE_ERROR), returned (RET_BORROWED_MUTABLE_REFERENCE_ERROR)
 *    or used to update a vector (VEC_UPDATE_EXISTS_MUTABLE_BORROW_ERROR,
 *    VEC_BORROW_ELEMENT_EXISTS_MUTABLE_BORROW_ERROR) while anything borrows from it, nor read,
 *    compared or frozen (READREF_EXISTS_MUTABLE_BORROW_ERROR, FREEZEREF_EXISTS_MUTABLE_BORROW_ERROR)
 *    while a mutable reference borrows from it; field borrows likewise
 *    (BORROWFIELD_EXISTS_MUTABLE_BORROW_ERROR);
 *  - a global may not be borrowed mutably while borrowed, nor at all while mutably borrowed, nor
 *    moved out while borrowed, nor may a function of this module that acquires it be called while
 *    it is borrowed (GLOBAL_REFERENCE_ERROR);
 *  - Ret: no local or global may still be borrowed (UNSAFE_RET_LOCAL_OR_RESOURCE_STILL_BORROWED:
 *    a returned reference into a local would dangle).
 *
 * Ids: 0..n-1 name the references held by locals 0..n-1 at block boundaries (the canonical form the
 * states are compared and joined in), n is the frame root, and fresh references count up from n+1.
 */
import type { StatusName } from "../vm/StatusCode.js"
import { BorrowGraph } from "./referenceSafetyBorrowGraph.js"

/** What a local or stack slot holds: a reference id (>= 0), or `VALUE` for anything else. */
export const VALUE = -1

// Labels of borrow-graph paths: locals and globals hang from the frame root, fields from references.
export const localLabel = (local: number): number => 3 * local
export const globalLabel = (structDef: number): number => 3 * structDef + 1
export const fieldLabel = (member: number): number => 3 * member + 2

/** Thrown to refuse at the current instruction. */
export class Refused {
  constructor(
    readonly status: StatusName,
    readonly message: string
  ) {}
}

const refuse = (status: StatusName, message: string): never => {
  throw new Refused(status, message)
}

export class AbstractState {
  private constructor(
    /** Per local: `VALUE` or the id of the reference it holds. */
    readonly locals: number[],
    public graph: BorrowGraph,
    private nextId: number
  ) {}

  /** The state at function entry: reference parameters are references nothing borrows from. */
  static initial(localCount: number, referenceParameters: ReadonlyArray<boolean | undefined>): AbstractState {
    const locals = new Array<number>(localCount).fill(VALUE)
    const graph = BorrowGraph.empty()
    referenceParameters.forEach((mutable, i) => {
      if (mutable === undefined) return
      graph.newRef(i, mutable)
      locals[i] = i
    })
    graph.newRef(localCount, true)
    return new AbstractState(locals, graph, localCount + 1)
  }

  copy(): AbstractState {
    return new AbstractState(this.locals.slice(), this.graph.clone(), this.nextId)
  }

  private get root(): number {
    return this.locals.length
  }

  graphSize(): number {
    return this.graph.size()
  }

  /** A fresh reference of the given mutability. */
  newRef(mutable: boolean): number {
    const id = this.nextId++
    this.graph.newRef(id, mutable)
    return id
  }

  release(value: number): void {
    if (value !== VALUE) this.graph.release(value)
  }

  private isWritable(id: number): boolean {
    return !this.graph.hasConsistentBorrows(id, undefined, false)
  }

  private isReadable(id: number, label: number | undefined): boolean {
    return !this.graph.isMutable(id) || !this.graph.hasConsistentBorrows(id, label, true)
  }

  private localBorrowed(local: number, mutableOnly: boolean): boolean {
    return this.graph.hasConsistentBorrows(this.root, localLabel(local), mutableOnly)
  }

  private globalBorrowed(structDef: number, mutableOnly: boolean): boolean {
    return this.graph.hasConsistentBorrows(this.root, globalLabel(structDef), mutableOnly)
  }

  private local(i: number): number {
    const v = this.locals[i]
    return v === undefined ? refuse("INDEX_OUT_OF_BOUNDS", `local ${i} is not declared`) : v
  }

  private ref(value: number, what: string): number {
    return value === VALUE ? refuse("VERIFIER_INVARIANT_VIOLATION", `${what}: expected a reference`) : value
  }

  copyLoc(i: number): number {
    const v = this.local(i)
    if (v !== VALUE) {
      // A copy is a new reference exactly equal to the old one.
      const id = this.newRef(this.graph.isMutable(v))
      this.graph.addStrong(v, [], id)
      return id
    }
    if (this.localBorrowed(i, true)) refuse("COPYLOC_EXISTS_BORROW_ERROR", `local ${i} is mutably borrowed`)
    return VALUE
  }

  moveLoc(i: number): number {
    const v = this.local(i)
    this.locals[i] = VALUE
    if (v === VALUE && this.localBorrowed(i, false)) refuse("MOVELOC_EXISTS_BORROW_ERROR", `local ${i} is borrowed`)
    return v
  }

  stLoc(i: number, value: number): void {
    const old = this.local(i)
    this.locals[i] = value
    if (old !== VALUE) this.graph.release(old)
    else if (this.localBorrowed(i, false)) refuse("STLOC_UNSAFE_TO_DESTROY_ERROR", `local ${i} is borrowed`)
  }

  borrowLoc(mutable: boolean, i: number): number {
    this.local(i)
    // A mutable borrow needs no check here: a mutable borrow of a borrowed local is caught where
    // either reference is next used.
    if (!mutable && this.localBorrowed(i, true))
      refuse("BORROWLOC_EXISTS_BORROW_ERROR", `local ${i} is mutably borrowed`)
    const id = this.newRef(mutable)
    this.graph.addStrong(this.root, [localLabel(i)], id)
    return id
  }

  freezeRef(value: number): number {
    const id = this.ref(value, "FreezeRef")
    if (this.graph.hasConsistentBorrows(id, undefined, true))
      refuse("FREEZEREF_EXISTS_MUTABLE_BORROW_ERROR", "freezing a reference that is mutably borrowed")
    const frozen = this.newRef(false)
    this.graph.addStrong(id, [], frozen)
    this.graph.release(id)
    return frozen
  }

  /** Eq and Neq: references are read, so neither may be mutably borrowed. */
  comparison(a: number, b: number): number {
    if (a !== VALUE && b !== VALUE && (!this.isReadable(a, undefined) || !this.isReadable(b, undefined)))
      refuse("READREF_EXISTS_MUTABLE_BORROW_ERROR", "comparing a reference that is mutably borrowed")
    this.release(a)
    this.release(b)
    return VALUE
  }

  /** ReadRef and TestVariant. */
  readRef(value: number): number {
    const id = this.ref(value, "ReadRef")
    if (!this.isReadable(id, undefined))
      refuse("READREF_EXISTS_MUTABLE_BORROW_ERROR", "reading through a mutably borrowed reference")
    this.graph.release(id)
    return VALUE
  }

  writeRef(value: number): void {
    const id = this.ref(value, "WriteRef")
    if (!this.isWritable(id)) refuse("WRITEREF_EXISTS_BORROW_ERROR", "writing through a borrowed reference")
    this.graph.release(id)
  }

  borrowField(mutable: boolean, value: number, member: number): number {
    const id = this.ref(value, "field borrow")
    const label = fieldLabel(member)
    // A mutable field borrow factors other field borrows under it, so only full borrows conflict;
    // an immutable one needs no mutable borrow of this field (others may be mutably borrowed).
    if (mutable ? this.graph.hasFullBorrows(id) : !this.isReadable(id, label))
      refuse("BORROWFIELD_EXISTS_MUTABLE_BORROW_ERROR", `field ${member} is borrowed`)
    const child = this.newRef(mutable)
    this.graph.addStrong(id, [label], child)
    this.graph.release(id)
    return child
  }

  borrowGlobal(mutable: boolean, structDef: number): number {
    if ((mutable && this.globalBorrowed(structDef, false)) || this.globalBorrowed(structDef, true))
      refuse("GLOBAL_REFERENCE_ERROR", `global ${structDef} is already borrowed`)
    const id = this.newRef(mutable)
    this.graph.addWeak(this.root, [globalLabel(structDef)], id)
    return id
  }

  moveFrom(structDef: number): number {
    if (this.globalBorrowed(structDef, false)) refuse("GLOBAL_REFERENCE_ERROR", `global ${structDef} is borrowed`)
    return VALUE
  }

  /** VecLen (read) and VecPushBack, VecPopBack, VecSwap (update). */
  vectorOp(value: number, mutable: boolean): void {
    const id = this.ref(value, "vector operation")
    if (mutable && !this.isWritable(id)) refuse("VEC_UPDATE_EXISTS_MUTABLE_BORROW_ERROR", "updating a borrowed vector")
    this.graph.release(id)
  }

  vectorBorrow(value: number, mutable: boolean): number {
    const id = this.ref(value, "vector borrow")
    if (mutable && !this.isWritable(id))
      refuse("VEC_BORROW_ELEMENT_EXISTS_MUTABLE_BORROW_ERROR", "mutably borrowing an element of a borrowed vector")
    const element = this.newRef(mutable)
    // Which element is unknown: a weak borrow of the whole vector.
    this.graph.addWeak(id, [], element)
    this.graph.release(id)
    return element
  }

  /**
   * A call (or a closure call): the globals the callee acquires must not be borrowed, mutable
   * reference arguments must not be borrowed (the callee may write through them), and each returned
   * reference is taken to borrow from every argument it could come from: a `&mut` result from the
   * `&mut` arguments, a `&` result from all reference arguments. Returns the result values and
   * how many edges that made (`edges`, for the meter).
   */
  call(
    args: ReadonlyArray<number>,
    acquires: ReadonlyArray<number>,
    results: ReadonlyArray<boolean | undefined>
  ): { values: number[]; edges: number } {
    for (const d of acquires)
      if (this.globalBorrowed(d, false))
        refuse("GLOBAL_REFERENCE_ERROR", `calling a function acquiring borrowed global ${d}`)
    const all: number[] = []
    const mutables: number[] = []
    for (const a of args) {
      if (a === VALUE || all.includes(a)) continue
      if (this.graph.isMutable(a)) {
        if (!this.isWritable(a)) refuse("CALL_BORROWED_MUTABLE_REFERENCE_ERROR", "passing a borrowed mutable reference")
        mutables.push(a)
      }
      all.push(a)
    }
    let returned = 0
    const values = results.map((mutable) => {
      if (mutable === undefined) return VALUE
      returned++
      const id = this.newRef(mutable)
      for (const p of mutable ? mutables : all) this.graph.addWeak(p, [], id)
      return id
    })
    for (const a of all) this.graph.release(a)
    return { values, edges: all.length * returned }
  }

  ret(values: ReadonlyArray<number>): void {
    for (const v of this.locals) if (v !== VALUE) this.graph.release(v)
    if (this.graph.hasConsistentBorrows(this.root, undefined, false))
      refuse("UNSAFE_RET_LOCAL_OR_RESOURCE_STILL_BORROWED", "a local or global is still borrowed at return")
    for (const v of values)
      if (v !== VALUE && this.graph.isMutable(v) && !this.isWritable(v))
        refuse("RET_BORROWED_MUTABLE_REFERENCE_ERROR", "returning a borrowed mutable reference")
  }

  /**
   * The canonical form at a block's end: the reference held by local i renamed i, the frame root
   * kept, fresh ids restarting after it. Two states reaching one block are then comparable.
   */
  canonical(): AbstractState {
    const n = this.locals.length
    const map = new Map<number, number>()
    map.set(n, n)
    const locals = this.locals.map((v, i) => {
      if (v === VALUE) return VALUE
      map.set(v, i)
      return i
    })
    // Anything else still in the graph is what a Ret returned (the block has no successor) or, on
    // code type safety would refuse, a leak; released, so that no id clashes with a local's.
    for (const id of [...this.graph.ids()]) if (!map.has(id)) this.graph.release(id)
    return new AbstractState(locals, this.graph.remap(map), n + 1)
  }

  /**
   * The join of two canonical states: a local holding a reference on one side only holds none (that
   * side's reference is released), and the borrow graphs are joined. Undefined when `this` already
   * covers `other` (nothing changed).
   */
  join(other: AbstractState): AbstractState | undefined {
    let mine = this.graph
    let theirs = other.graph
    let localsChanged = false
    const locals = this.locals.map((v, i) => {
      const w = other.locals[i] ?? VALUE
      if (v === w) return v
      if (v !== VALUE) {
        if (mine === this.graph) mine = mine.clone()
        mine.release(v)
        localsChanged = true
      } else {
        if (theirs === other.graph) theirs = theirs.clone()
        theirs.release(w)
      }
      return VALUE
    })
    const graph = mine.join(theirs)
    if (!localsChanged && this.graph.covers(graph)) return undefined
    return new AbstractState(locals, graph, this.nextId)
  }
}
