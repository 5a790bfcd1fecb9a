/**
 * A bounded least-recently-used map over a JS `Map` (which keeps insertion order: a hit is moved to
 * the end by delete + set, and the first key is the least recently used). Synchronous and
 * allocation-free on a hit, for the hot read paths. The most recent entry is also held aside: a hit
 * on it (a client polling one account, one page) is a key comparison, with no hashing of the key
 * and no reordering, since it is already last.
 *
 * Bounded by a number of entries and, when the values' sizes vary by orders of magnitude (rendered
 * answers: an account's one resource or 0x1's 2 MB of modules), also by their summed `weight`
 * (bytes): a client asking for large pages under many keys (`?limit=200`, `201`, …) then costs at
 * most that much memory, not the count times the largest answer. A value heavier than the whole
 * budget is not kept.
 */
import { hasMissed } from "../ledger/stateMisses.js"

/**
 * A budget for the entries' summed sizes: `of` gives an entry's size (bytes, say: of its value, or of
 * its key where the key is the large part, as a query text), at most `max` in all.
 */
export interface LruWeight<K, V> {
  readonly max: number
  readonly of: (value: V, key: K) => number
}

export class LruCache<K, V> {
  private readonly entries = new Map<K, V>()
  private hasNewest = false
  private newestKey: K | undefined
  private newestValue: V | undefined

  /** Each kept key's weight, when the cache has a weight budget. */
  private readonly weights: Map<K, number> | undefined
  private weightSum = 0

  constructor(
    readonly capacity: number,
    private readonly weight?: LruWeight<K, V>
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`LRU capacity must be a positive integer`)
    if (weight !== undefined && !(weight.max > 0)) throw new RangeError(`LRU weight budget must be positive`)
    this.weights = weight === undefined ? undefined : new Map()
  }

  get size(): number {
    return this.entries.size
  }

  /** The kept values' summed weight (0 without a weight budget). */
  get totalWeight(): number {
    return this.weightSum
  }

  get(key: K): V | undefined {
    if (this.hasNewest && this.newestKey === key) return this.newestValue
    const value = this.entries.get(key)
    if (value === undefined) return undefined
    this.entries.delete(key)
    this.entries.set(key, value)
    this.remember(key, value)
    return value
  }

  /**
   * Keeps `value` under `key` as the most recent entry, evicting the least recently used past the
   * capacity or the weight budget. Setting a key again (a mutable value whose size changed) weighs
   * it again. A value heavier than the whole budget is not kept, and the key's older value goes.
   */
  set(key: K, value: V): void {
    // On a fork, an answer computed while state was missing is dropped, not kept (ledger/stateMisses.ts).
    if (hasMissed()) return
    const weight = this.weight?.of(value, key)
    this.delete(key)
    if (weight !== undefined && !(weight <= this.weight!.max)) return
    this.entries.set(key, value)
    if (weight !== undefined) {
      this.weights!.set(key, weight)
      this.weightSum += weight
    }
    this.remember(key, value)
    // The entry just set is last, and alone it fits both bounds: it is never the one evicted.
    while (this.entries.size > this.capacity || this.weightSum > (this.weight?.max ?? Number.POSITIVE_INFINITY)) {
      const oldest = this.entries.keys().next()
      if (oldest.done) break
      this.delete(oldest.value)
    }
  }

  /** Forgets `key`'s entry, if any. */
  delete(key: K): void {
    if (!this.entries.delete(key)) return
    if (this.weights !== undefined) {
      this.weightSum -= this.weights.get(key) ?? 0
      this.weights.delete(key)
    }
    if (this.hasNewest && this.newestKey === key) this.forgetNewest()
  }

  /** Empties the cache. */
  clear(): void {
    this.entries.clear()
    this.weights?.clear()
    this.weightSum = 0
    this.forgetNewest()
  }

  private forgetNewest(): void {
    this.hasNewest = false
    this.newestKey = undefined
    this.newestValue = undefined
  }

  has(key: K): boolean {
    return this.entries.has(key)
  }

  private remember(key: K, value: V): void {
    this.hasNewest = true
    this.newestKey = key
    this.newestValue = value
  }
}
