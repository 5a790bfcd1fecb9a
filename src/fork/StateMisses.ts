/**
 * How a synchronous reader gets state it does not have yet (the design: docs/fork.md "Lazy reads").
 *
 * The VM reads state synchronously in its inner loop, so a key the fork has not fetched cannot be
 * awaited there. Instead a read of such a key records the key in the miss log of the fiber doing
 * the read and throws `RemoteStateMissing`. The VM may turn that throw into a failed status (it
 * turns any unexpected throw into UNKNOWN_INVARIANT_VIOLATION_ERROR), so the throw is only a way
 * to stop early: the log is the truth. `retryOnMiss` runs a unit of work (a request, a block) with
 * a fresh log; when the log is not empty afterwards, whatever the work answered was computed on
 * incomplete state and is dropped: the logged keys are fetched and the work runs again. Each round
 * fetches at least one key never fetched before, so the rounds are bounded by the keys the work
 * touches. A block is never committed from a run that missed (`ForkLedger`'s commit checks the
 * log), and a request's answer is never sent from one.
 */
import * as Effect from "effect/Effect"
import { toHex } from "../bcs/index.js"
import {
  CurrentMissLog,
  currentMissLog,
  hasMissed,
  type Miss,
  MissLog,
  ToleratingMisses
} from "../ledger/stateMisses.js"

export { CurrentMissLog, currentMissLog, hasMissed, type Miss, MissLog, ToleratingMisses }

/** Thrown by a read of a key not fetched yet (after logging it); never an answer. */
export class RemoteStateMissing extends Error {
  constructor(readonly keyHex: string) {
    super(`fork: state key 0x${keyHex} is not fetched yet`)
    this.name = "RemoteStateMissing"
  }
}

/**
 * Logs a miss of `keyBytes` at `version` in the running unit of work; outside any, the key is
 * fetched in the background for the next try. Either way the read fails (throws).
 */
export const recordMiss = (keyBytes: Uint8Array, version: bigint, fetch: () => Promise<void>): never => {
  const hex = toHex(keyBytes)
  const log = currentMissLog()
  if (log === undefined) fetch().catch(() => undefined)
  else log.keys.set(`${version}/${hex}`, { keyBytes, fetch })
  throw new RemoteStateMissing(hex)
}

/** Runs the fetches, 8 at a time; fails with the first failure (the others still settle). */
export const fetchMisses = async (misses: ReadonlyArray<Miss>): Promise<void> => {
  let next = 0
  let failure: unknown
  const worker = async () => {
    while (failure === undefined && next < misses.length) {
      const m = misses[next++]!
      try {
        await m.fetch()
      } catch (e) {
        failure ??= e
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(8, misses.length) }, worker))
  if (failure !== undefined) throw failure
}

/**
 * Runs `effect` until it completes without a miss, fetching what each run missed in between;
 * `maxRounds` bounds a pathological run (each round fetches at least one new key).
 */
export const retryOnMiss =
  <E2>(toError: (e: unknown) => E2, options: { readonly maxRounds?: number; readonly degrade?: boolean } = {}) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | E2, R> =>
    Effect.gen(function* () {
      const maxRounds = options.maxRounds ?? 10_000
      for (let round = 0; ; round++) {
        if (round >= maxRounds)
          return yield* Effect.fail(toError(new Error(`fork: state still missing after ${round} rounds of fetching`)))
        const log = new MissLog()
        const exit = yield* Effect.exit(Effect.provideService(effect, CurrentMissLog, log))
        if (log.keys.size === 0) return yield* exit
        const misses = [...log.keys.values()]
        const fetched = yield* Effect.exit(Effect.tryPromise({ try: () => fetchMisses(misses), catch: toError }))
        if (fetched._tag === "Success") continue
        if (options.degrade !== true) return yield* Effect.failCause(fetched.cause)
        // The source cannot answer: once more, tolerating misses (a block discards the transactions
        // that missed); a miss it cannot tolerate (the block's own system calls) is the error.
        const last = new MissLog()
        const degraded = yield* Effect.exit(
          Effect.provideService(Effect.provideService(effect, CurrentMissLog, last), ToleratingMisses, true)
        )
        if (last.keys.size === 0) return yield* degraded
        return yield* Effect.failCause(fetched.cause)
      }
    })
