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

/**
 * Set when the state a unit of work missed cannot be fetched (the source is gone) and the work is
 * run once more to do what it can without it: a block then discards the transactions that missed
 * (`withoutMissesOf`), so one transaction needing an unfetchable key does not hold up the others.
 */
export const ToleratingMisses = Context.Reference<boolean>("movenode/ledger/ToleratingMisses", {
  defaultValue: () => false
})

/**
 * Runs `f`; when the running unit of work tolerates misses and `f` missed, forgets those misses
 * (the caller drops what `f` produced) and says so: `missed` true.
 */
export const withoutMissesOf = <A>(f: () => A): { readonly value: A; readonly missed: boolean } => {
  const log = currentMissLog()
  if (log === undefined) return { value: f(), missed: false }
  const before = new Set(log.keys.keys())
  const value = f()
  if (log.keys.size === before.size || Fiber.getCurrent()?.getRef(ToleratingMisses) !== true)
    return { value, missed: false }
  for (const k of [...log.keys.keys()]) if (!before.has(k)) log.keys.delete(k)
  return { value, missed: true }
}
