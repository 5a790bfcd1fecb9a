/**
 * The `txns` table's records are LZ4-compressed by lmdb-js (LmdbBackend.ts). For a put queued to
 * its write thread — how every block is committed (`commitMany`) — lmdb-js 3.5 hands each value to
 * compress to libuv's thread pool at once (`compress` in its `write.js`: one pool job per record,
 * whose hand-off wakes a pool thread and whose completion comes back to the event loop as a
 * callback). Its write thread, reaching a record the pool has not started yet, compresses it
 * itself (`writer.cpp`, "doing the compression ourselves"): the hand-off only lets a pool thread
 * get there first.
 *
 * Under a flood the pool is mostly awake and a hand-off cheaper (still a job per record). Between
 * blocks of one transfer each (a test suite waiting for every transaction, 100 transfers a second)
 * the pool is asleep, and each record's hand-off costs the event loop a wake-up of another thread,
 * often a preemption by it (the two share two cores with the workers and the client), and a
 * callback: a CPU profile put 12.8 % of the event loop's time for an empty block under the put that
 * makes it. Without it (docs/benchmarks.md, session 23): ~20–25 µs less of the event loop per
 * record (`scripts/bench-compress-handoff.mjs`, 10 of 10 rounds), blocks of one transfer cheaper
 * for the event loop and preempting it a quarter to half as often
 * (`scripts/bench-small-blocks.mjs`, 4 of 4 pairs); under a flood the event loop's turns shorter
 * (p99, 5 of 5 pairs); at 100 transfers/s end to end a few per cent, within this machine's spread;
 * throughput alike.
 *
 * This turns the hand-off off in the calling thread's copy of lmdb-js, so the write thread
 * compresses every record of every compressing table that thread writes (an embedding
 * application's own included): the same bytes are stored, only where they are compressed changes.
 * It reaches into lmdb-js's internals (its `native.js`, whose `setNativeFunctions` rebinds the
 * addon's functions that `write.js` imports), so it acts only on the version it was measured on
 * and leaves any other as it is. test/ledger/compressOnWriteThread.test.ts fails if the lock file
 * moves lmdb-js past it.
 */
import { readFileSync } from "node:fs"

/** The lmdb-js version whose internals this knows (package-lock.json). */
export const LMDB_VERSION_HOOKED = "3.5.6"

interface LmdbNative {
  readonly nativeAddon?: Record<string, unknown>
  readonly setNativeFunctions?: (externals: Record<string, unknown>) => void
}

/** Called by lmdb-js where it would queue the pool job: does nothing, so the write thread compresses the record. */
const leaveToWriteThread = (): void => {}

let applied: Promise<boolean> | undefined

/**
 * Makes the write thread compress the records this thread's puts queue (see above). Resolves true
 * when done, false when lmdb-js is not the version this knows or its internals are not as
 * expected (nothing changed then). Once per thread; later calls answer the first's promise.
 */
export const compressOnWriteThread = (): Promise<boolean> => (applied ??= apply())

const apply = async (): Promise<boolean> => {
  try {
    const entry = import.meta.resolve("lmdb")
    const { version } = JSON.parse(readFileSync(new URL("./package.json", entry), "utf8")) as { version?: unknown }
    if (version !== LMDB_VERSION_HOOKED) return false
    const native = (await import(new URL("./native.js", entry).href)) as LmdbNative
    const addon = native.nativeAddon
    if (addon === undefined || typeof addon.compress !== "function" || typeof native.setNativeFunctions !== "function")
      return false
    // The addon's functions are mostly not enumerable: the rest are read through the prototype.
    const externals: Record<string, unknown> = Object.create(addon)
    externals.compress = leaveToWriteThread
    native.setNativeFunctions(externals)
    return true
  } catch {
    return false
  }
}
