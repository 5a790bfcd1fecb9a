/**
 * The snapshots a chain keeps, with anvil's semantics (`evm_snapshot` / `evm_revert`): ids grow
 * from 1; reverting to an id uses it up and discards every later snapshot (they describe a future
 * that no longer happens); an unknown or used id is refused. What a snapshot holds is the caller's
 * (`A`): the ledger's mark, the clock's settings, the pending transactions. Kept in memory: a
 * restarted chain has none (as anvil).
 */
export class Snapshots<A> {
  private next = 1n
  private readonly held = new Map<bigint, A>()

  /** Keeps `value`; returns its id. */
  add(value: A): bigint {
    const id = this.next++
    this.held.set(id, value)
    return id
  }

  /** The snapshot `id`, removed with every later one; undefined when there is none. */
  take(id: bigint): A | undefined {
    const value = this.held.get(id)
    if (value === undefined) return undefined
    for (const k of [...this.held.keys()]) if (k >= id) this.held.delete(k)
    return value
  }

  /** Forgets all (reset, load): ids keep growing, so an old id is never reused. */
  clear(): void {
    this.held.clear()
  }

  /** The ids held, ascending. */
  ids(): ReadonlyArray<bigint> {
    return [...this.held.keys()]
  }
}
