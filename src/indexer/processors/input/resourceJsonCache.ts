/**
 * Resource values' JSON kept by type and bytes, across transactions, for the indexer's input.
 *
 * Why: a resource group is written whole when one member changes, so every transaction that moves
 * a fungible asset rewrites members whose bytes did not change — each store's `ObjectCore`, and on
 * every fee burn the APT metadata object's `ObjectCore`, `Metadata` and `PairedCoinType` beside the
 * `ConcurrentSupply` that did change. The processors read those members (owners, metadata), so the
 * same bytes were decoded into the same JSON again for every transfer: ~5 % of the index worker's
 * CPU at full load (docs/benchmarks.md, session 61).
 *
 * A kept value is handed out as is: `JsonValue` is read-only, and a transaction's own `data()` is
 * already shared by every processor that asks. An entry remembers the layout it was decoded with
 * and serves only while the indexer still decodes that type with that layout (the input resolves a
 * type afresh when a value stops fitting its kept layout), so the answer is always what decoding
 * the bytes then would give. Values over `MAX_BYTES` are not kept (their key would cost more than
 * a decode saves, and the cache's memory stays bounded: `capacity` entries of at most that size).
 */
import type { JsonValue } from "../../../move/json/bcsToJson.js"
import type { MoveTypeLayout } from "../../../move/layout/MoveTypeLayout.js"
import { LruCache } from "../../../node/LruCache.js"

/** Values at most this long are kept (an `ObjectCore` is 105 bytes, APT's `Metadata` ~150). */
export const MAX_BYTES = 512

const latin1Slice = Buffer.prototype.latin1Slice as (this: Uint8Array, start: number, end: number) => string

interface Kept {
  readonly layout: MoveTypeLayout
  readonly json: JsonValue
}

export interface ResourceJsonCache {
  /** The cache's key of `bytes` of type `typeKey`; undefined for a value too long to keep. */
  readonly keyOf: (typeKey: string, bytes: Uint8Array) => string | undefined
  /** The JSON kept under `key` if it was decoded with `layout`. */
  readonly get: (key: string, layout: MoveTypeLayout) => JsonValue | undefined
  /** Keeps `json`, what the value of `key` decoded to with `layout`. */
  readonly set: (key: string, layout: MoveTypeLayout, json: JsonValue) => void
  readonly size: () => number
}

export const makeResourceJsonCache = (capacity = 2048): ResourceJsonCache => {
  const kept = new LruCache<string, Kept>(capacity)
  return {
    // The type string never holds a NUL, so type and bytes cannot run into each other.
    keyOf: (typeKey, bytes) =>
      bytes.length > MAX_BYTES ? undefined : `${typeKey}\u0000${latin1Slice.call(bytes, 0, bytes.length)}`,
    get: (key, layout) => {
      const k = kept.get(key)
      return k !== undefined && k.layout === layout ? k.json : undefined
    },
    set: (key, layout, json) => {
      kept.set(key, { layout, json })
    },
    size: () => kept.size
  }
}
