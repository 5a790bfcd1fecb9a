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
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import { toHex } from "../bcs/index.js"

/** The keys one unit of work read and could not get (hex of BCS(StateKey) → bytes). */
export class MissLog {
  readonly keys = new Map<string, Uint8Array>()
}

/** The miss log of the running unit of work; undefined outside `retryOnMiss`. */
export const CurrentMissLog = Context.Reference<MissLog | undefined>("movenode/fork/CurrentMissLog", {
  defaultValue: () => undefined
})

/** Thrown by a read of a key not fetched yet (after logging it); never an answer. */
export class RemoteStateMissing extends Error {
  constructor(readonly keyHex: string) {
    super(`fork: state key 0x${keyHex} is not fetched yet`)
    this.name = "RemoteStateMissing"
  }
}

/** The running fiber's miss log, read synchronously (readers are plain functions). */
export const currentMissLog = (): MissLog | undefined => Fiber.getCurrent()?.getRef(CurrentMissLog)

/**
 * Logs a miss of `keyBytes` in the running unit of work (or hands it to `orphan` outside any:
 * then the read still fails, and the key is fetched in the background for the next try).
 */
export const recordMiss = (keyBytes: Uint8Array, orphan: (keyBytes: Uint8Array) => void): never => {
  const hex = toHex(keyBytes)
  const log = currentMissLog()
  if (log === undefined) orphan(keyBytes)
  else log.keys.set(hex, keyBytes)
  throw new RemoteStateMissing(hex)
}

/** Whether the running unit of work has read a key it could not get (its result must not be kept). */
export const hasMissed = (): boolean => (currentMissLog()?.keys.size ?? 0) > 0

/**
 * Runs `effect` until it completes without a miss, fetching what each run missed in between;
 * `maxRounds` bounds a pathological run (each round fetches at least one new key).
 */
export const retryOnMiss =
  <E2>(fetchKeys: (keys: ReadonlyArray<Uint8Array>) => Effect.Effect<void, E2>, tooMany: (rounds: number) => E2, maxRounds = 10_000) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | E2, R> =>
    Effect.gen(function* () {
      for (let round = 0; ; round++) {
        if (round >= maxRounds) return yield* Effect.fail(tooMany(round))
        const log = new MissLog()
        const exit = yield* Effect.exit(Effect.provideService(effect, CurrentMissLog, log))
        if (log.keys.size === 0) return yield* exit
        yield* fetchKeys([...log.keys.values()])
      }
    })
