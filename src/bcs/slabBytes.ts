/**
 * Byte arrays for a block's outputs, carved from shared slabs instead of each getting a backing
 * store of its own.
 *
 * V8 keeps a `Uint8Array` of up to 64 bytes inside its heap; a longer one gets an off-heap backing
 * store: a `calloc`, an extension object the young generation's scavenges must process, and a
 * `free` on V8's sweeper thread that contends with the allocating thread for glibc's arena lock
 * (`scripts/bench-bytes-alloc.mjs`: ~0.5–1.2 µs of the process's CPU each for 65–300 bytes, against
 * ~45 ns from a slab). Executing and committing an APT transfer made ~18 of them on the event loop
 * (a write set's resource groups, its BCS, each event's BCS, the ledger's record); with these slabs
 * it makes ~8 (docs/benchmarks.md, "Session 57": CPU per transfer −2.8 % median over 18 pairs,
 * within that machine's noise).
 *
 * The cost is what a view keeps alive: a slab is freed only when no array carved from it is
 * reachable, so one long-lived array holds its whole slab (`SLAB_BYTES`). Use these only for
 * bytes that die with the block that made them (its write set, events, records: written to the
 * ledger and dropped), never for anything a cache, the mempool or a long-lived map keeps — there a
 * 200-byte value would pin 32 KB. Two more rules, because the array is a window on a larger
 * buffer: never read `.buffer` as if it held only these bytes, and never post it to a worker
 * (structured cloning copies the whole slab).
 */

/** One slab's size: at most this much is kept alive by a stray long-lived array. */
const SLAB_BYTES = 32 * 1024
/** Longer arrays get a backing store of their own: the allocation's cost is small beside theirs. */
const MAX_SLAB_ARRAY = 4096
/** V8's in-heap limit for typed arrays (`V8_TYPED_ARRAY_MAX_SIZE_IN_HEAP`): shorter ones stay there. */
const IN_HEAP_BYTES = 64

let slab = new ArrayBuffer(SLAB_BYTES)
let used = 0

/**
 * A zero-filled `Uint8Array` of `n` bytes for a block's output (see above): from the current slab
 * when it is longer than V8 keeps in its heap and at most `MAX_SLAB_ARRAY`, else a new array.
 */
export const slabBytes = (n: number): Uint8Array => {
  if (n <= IN_HEAP_BYTES || n > MAX_SLAB_ARRAY) return new Uint8Array(n)
  if (used + n > SLAB_BYTES) {
    // A new slab every time: an old one is never handed out again, so no two arrays share bytes.
    slab = new ArrayBuffer(SLAB_BYTES)
    used = 0
  }
  const out = new Uint8Array(slab, used, n)
  // The next array starts 8-byte aligned, as a backing store of its own would.
  used = (used + n + 7) & ~7
  return out
}

/** A copy of `bytes` in `slabBytes`'s storage (same rules). */
export const slabCopy = (bytes: Uint8Array): Uint8Array => {
  const out = slabBytes(bytes.length)
  out.set(bytes)
  return out
}
