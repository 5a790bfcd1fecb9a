/**
 * Resource values' JSON kept by layout and bytes, across transactions, for the indexer's input.
 *
 * Why: a resource group is written whole when one member changes, so every transaction that moves
 * a fungible asset rewrites members whose bytes did not change — each store's `ObjectCore`, and on
 * every fee burn the APT metadata object's `ObjectCore`, `Metadata` and `PairedCoinType` beside the
 * `ConcurrentSupply` that did change. The processors read those members (owners, metadata), so the
 * same bytes were decoded into the same JSON again for every transfer: ~5 % of the index worker's
 * CPU at full load (docs/benchmarks.md, session 61).
 *
 * A kept value is handed out as is: `JsonValue` is read-only, and a transaction's own `data()` is
 * already shared by every processor that asks. An entry is served only for the very layout object
 * it was decoded with (the input resolves a type afresh when a value stops fitting its kept
 * layout), so the answer is always what decoding the bytes then would give.
 *
 * Direct-mapped: a value's slot is a hash of its bytes, and a new value takes its slot over. Most
 * values a block writes never repeat (balances, sequence numbers); a direct-mapped table lets them
 * pass through at the cost of an occasional unchanged member decoded again, where an LRU would
 * reorder itself on every hit. A hit costs a hash and a comparison of the bytes (no key string is
 * built: a string of a value's bytes cost more than a Map lookup saved). Bounded: `slots` entries,
 * each of at most `MAX_BYTES` bytes (a longer value is not kept).
 *
 * A type whose values do not repeat (a store's balance, an account's sequence number: every write
 * new) would pay the hash, the comparison and the copy for nothing, so each layout's lookups are
 * counted: one that found nothing in `PROBE` lookups is passed over (neither looked up nor kept)
 * for the next `REST`, then probed again.
 */
import { equalBytes } from "../../../bcs/index.js"
import type { JsonValue } from "../../../move/json/bcsToJson.js"
import type { MoveTypeLayout } from "../../../move/layout/MoveTypeLayout.js"

/** Values at most this long are kept (an `ObjectCore` is 105 bytes, APT's `Metadata` ~150). */
export const MAX_BYTES = 512
/** Lookups of a layout that decide whether its values repeat. */
export const PROBE = 64
/** Lookups of a layout whose values did not repeat that are passed over before it is probed again. */
export const REST = 4096

/** A layout's lookups in the current round: `hits` of `looked` (negative `looked`: resting). */
interface Tally {
  looked: number
  hits: number
}

interface Kept {
  readonly layout: MoveTypeLayout
  /** A copy: the value's bytes are a view into a record the cache must not keep alive. */
  readonly bytes: Uint8Array
  readonly json: JsonValue
}

export interface ResourceJsonCache {
  /** The JSON kept for `bytes` decoded with `layout`, if any. */
  readonly get: (layout: MoveTypeLayout, bytes: Uint8Array) => JsonValue | undefined
  /** Keeps `json`, what `bytes` decoded to with `layout` (a value over `MAX_BYTES` is not kept). */
  readonly set: (layout: MoveTypeLayout, bytes: Uint8Array, json: JsonValue) => void
  /** Entries held. */
  readonly size: () => number
}

/** FNV-1a over the bytes (32 bits). */
const hashOf = (bytes: Uint8Array): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193)
  return h >>> 0
}

/** `slots`: a power of two. */
export const makeResourceJsonCache = (slots = 4096): ResourceJsonCache => {
  if (!Number.isInteger(Math.log2(slots))) throw new RangeError("the cache's slots must be a power of two")
  const mask = slots - 1
  const table: Array<Kept | undefined> = new Array(slots).fill(undefined)
  let held = 0
  // By layout object (few: one per resource type the chain writes; bounded like the layouts).
  const tallies = new Map<MoveTypeLayout, Tally>()
  /** `layout`'s tally if its values are looked up now (counting the lookup), else undefined. */
  const looks = (layout: MoveTypeLayout): Tally | undefined => {
    let r = tallies.get(layout)
    if (r === undefined) {
      if (tallies.size >= slots) tallies.clear()
      r = { looked: 0, hits: 0 }
      tallies.set(layout, r)
    }
    if (r.looked < 0) {
      r.looked++
      return undefined
    }
    if (++r.looked >= PROBE) {
      // A round ends: rest if nothing repeated in it, else start another.
      r.looked = r.hits === 0 ? -REST : 0
      r.hits = 0
    }
    return r
  }
  return {
    get: (layout, bytes) => {
      if (bytes.length > MAX_BYTES) return undefined
      const tally = looks(layout)
      if (tally === undefined) return undefined
      const k = table[hashOf(bytes) & mask]
      if (k === undefined || k.layout !== layout || !equalBytes(k.bytes, bytes)) return undefined
      tally.hits++
      return k.json
    },
    set: (layout, bytes, json) => {
      if (bytes.length > MAX_BYTES) return
      // Not while the layout rests (`get` just counted this value's lookup).
      const r = tallies.get(layout)
      if (r !== undefined && r.looked < 0) return
      const slot = hashOf(bytes) & mask
      if (table[slot] === undefined) held++
      table[slot] = { layout, bytes: new Uint8Array(bytes), json }
    },
    size: () => held
  }
}
