/**
 * A state reader may not hold every value yet: a fork's reader (src/fork) logs a key it has not
 * fetched in the running unit of work's miss log and throws (src/fork/StateMisses.ts tells the
 * whole design). What is here is what layers below the fork need to know of it: where the log
 * lives (a `Context.Reference` read from the running fiber) and whether the running unit of work
 * has missed, so that caches never keep an answer computed on incomplete state (`LruCache.set`,
 * the renderer's texts). Outside a fork the log is never set and `hasMissed` is false.
 */
import * as Context from "effect/Context"
import * as Fiber from "effect/Fiber"

/** A miss: the key, and how to fetch it (from the source at the version that was read). */
export interface Miss {
  readonly keyBytes: Uint8Array
  readonly fetch: () => Promise<void>
}

/** What one unit of work read and could not get, by version and key. */
export class MissLog {
  readonly keys = new Map<string, Miss>()
}

/** The miss log of the running unit of work; undefined outside one (and always outside a fork). */
export const CurrentMissLog = Context.Reference<MissLog | undefined>("movenode/ledger/CurrentMissLog", {
  defaultValue: () => undefined
})

/** The running fiber's miss log, read synchronously (readers are plain functions). */
export const currentMissLog = (): MissLog | undefined => Fiber.getCurrent()?.getRef(CurrentMissLog)

/** Whether the running unit of work read a key it could not get (its results must not be kept). */
export const hasMissed = (): boolean => (currentMissLog()?.keys.size ?? 0) > 0
