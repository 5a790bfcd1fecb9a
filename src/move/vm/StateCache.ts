import type { Type } from "./Type.js"
import type { Value } from "./Value.js"

/**
 * A global value as read from one snapshot: the stored byte count (what a read is charged for) and
 * the value decoded as `type`, with its memory-tracker size. The value is pristine: sessions take
 * deep copies (values are mutable inside a run), never the cached object itself.
 */
export interface CachedValue {
  /** Length of the stored bytes; -1 when the slot is empty. */
  readonly byteLength: number
  /** The type the value was decoded as (types are interned, so this is an identity check). */
  readonly type: Type
  readonly value: Value
  /** `heapSize(value, node)` for the `node` it was measured with. */
  readonly node: number
  readonly size: number
}

/** A resource group's bytes and, per member, [tag start, tag end, value start, value end). */
export interface GroupIndex {
  readonly bytes: Uint8Array
  readonly offsets: ReadonlyArray<number>
}

/** Bounds on what one snapshot keeps per kind (entries, and an estimate of their bytes). */
export const STATE_CACHE_MAX_ENTRIES = 20_000
export const STATE_CACHE_MAX_BYTES = 8 * 1024 * 1024

/**
 * Entries by (outer, inner) key: two map lookups on strings that are already built (and hashed),
 * rather than one on a concatenation. Past its caps it is emptied whole: cheap, bounded, and a
 * view's working set is refilled in one run.
 */
class Tier<V> {
  private readonly byOuter = new Map<string, Map<string, V>>()
  private entries = 0
  private weight = 0
  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight: number
  ) {}

  get(outer: string, inner: string): V | undefined {
    return this.byOuter.get(outer)?.get(inner)
  }

  set(outer: string, inner: string, value: V, weight: number): void {
    if (weight > this.maxWeight) return // too big to keep: read again next time
    if (this.entries >= this.maxEntries || this.weight + weight > this.maxWeight) this.clear()
    let m = this.byOuter.get(outer)
    if (m === undefined) {
      m = new Map()
      this.byOuter.set(outer, m)
    }
    if (!m.has(inner)) this.entries++
    m.set(inner, value)
    this.weight += weight
  }

  clear(): void {
    this.byOuter.clear()
    this.entries = 0
    this.weight = 0
  }

  get size(): number {
    return this.entries
  }
}

/**
 * Names one value derived from a snapshot's state alone (and its type): what a caller outside the VM
 * keeps with the snapshot's cache (`StateCache.derived`), such as the environment a transaction runs
 * in (`TransactionRun`).
 */
export class DerivedKey<A> {
  declare readonly _value: A
  constructor(readonly name: string) {}
}

/**
 * What runs at one snapshot read of global state, shared by every session at that snapshot: the
 * state of a snapshot is immutable (see `StateView.snapshot`), so a read answers the same for every
 * run. A new snapshot empties it.
 */
export class StateCache {
  private snapshot: string | bigint | undefined
  /** Resources by type name, then address key. */
  readonly resources: Tier<CachedValue>
  /** Group indexes by group name, then address key. */
  readonly groups: Tier<GroupIndex>
  /** Table items by handle key, then item key. */
  readonly tables: Tier<CachedValue>

  constructor(maxEntries = STATE_CACHE_MAX_ENTRIES, maxWeight = STATE_CACHE_MAX_BYTES) {
    this.resources = new Tier(maxEntries, maxWeight)
    this.groups = new Tier(maxEntries, maxWeight)
    this.tables = new Tier(maxEntries, maxWeight)
  }

  /** Values derived from this snapshot's state alone, by who derives them (few: one per kind). */
  private readonly derivedValues = new Map<DerivedKey<unknown>, unknown>()

  /** This cache for `snapshot`, emptied first when it held another one. */
  at(snapshot: string | bigint): StateCache {
    if (snapshot !== this.snapshot) {
      this.snapshot = snapshot
      this.resources.clear()
      this.groups.clear()
      this.tables.clear()
      this.derivedValues.clear()
    }
    return this
  }

  /** The value `key` names, derived from this snapshot before, if it was. */
  derived<A>(key: DerivedKey<A>): A | undefined {
    return this.derivedValues.get(key) as A | undefined
  }

  /** Keeps `value`, derived from this snapshot's state alone, until the snapshot changes. */
  keepDerived<A>(key: DerivedKey<A>, value: A): void {
    this.derivedValues.set(key, value)
  }

  /** Entries held (all kinds). */
  get size(): number {
    return this.resources.size + this.groups.size + this.tables.size
  }
}
