/**
 * A bounded least-recently-used map over a JS `Map` (which keeps insertion order: a hit is moved to
 * the end by delete + set, and the first key is the least recently used). Synchronous and
 * allocation-free on a hit, for the hot read paths. The most recent entry is also held aside: a hit
 * on it (a client polling one account, one page) is a key comparison, with no hashing of the key
 * and no reordering, since it is already last.
 */
import { hasMissed } from "../ledger/stateMisses.js"

export class LruCache<K, V> {
  private readonly entries = new Map<K, V>()
  private hasNewest = false
  private newestKey: K | undefined
  private newestValue: V | undefined

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`LRU capacity must be a positive integer`)
  }

  get size(): number {
    return this.entries.size
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

  set(key: K, value: V): void {
    // On a fork, an answer computed while state was missing is dropped, not kept (ledger/stateMisses.ts).
    if (hasMissed()) return
    this.entries.delete(key)
    this.entries.set(key, value)
    this.remember(key, value)
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next()
      if (!oldest.done) this.entries.delete(oldest.value)
    }
  }

  /** Empties the cache. */
  clear(): void {
    this.entries.clear()
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
