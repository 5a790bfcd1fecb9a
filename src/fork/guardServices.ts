/**
 * Puts every Effect a service hands out under `retryOnMiss` (see `StateMisses`): the units of work
 * of a fork are the node's answers (one per request), the block producer's blocks and the faucet's
 * fundings. Applied to a built service, so the services themselves know nothing of forks.
 */
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ForkSourceError } from "./ForkSourceClient.js"
import { retryOnMiss } from "./StateMisses.js"

type Guard = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>

/** The service with every Effect it returns (or holds) guarded; plain objects are walked three levels deep (node → reads → accounts). */
export const guardDeep = <S>(service: S, guard: Guard, depth = 0): S => {
  const value: unknown = service
  if (Effect.isEffect(value)) return guard(value) as S
  if (typeof value === "function")
    return ((...args: ReadonlyArray<unknown>) => {
      const r = (value as (...a: ReadonlyArray<unknown>) => unknown)(...args)
      return Effect.isEffect(r) ? guard(r) : r
    }) as S
  if (depth < 3 && typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = guardDeep(v, guard, depth + 1)
    return out as S
  }
  return service
}

/**
 * A guard whose source failures become the service's own error (`toError`), so the guarded
 * service keeps its error type (the cast says so; `toError` is what makes it true).
 */
export const missGuard =
  <E2>(toError: (e: ForkSourceError) => E2, degrade = false): Guard =>
  <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    retryOnMiss((e) => toError(e instanceof ForkSourceError ? e : new ForkSourceError(String(e))), { degrade })(
      effect
    ) as Effect.Effect<A, E, R>

/** `tag`'s service, guarded, in place of the one below it. */
export const guardLayer = <I, S, E2>(
  tag: Context.Service<I, S>,
  toError: (e: ForkSourceError) => E2,
  /** When the source cannot answer, run once more tolerating misses (the block producer: see StateMisses). */
  degrade = false
): Layer.Layer<I, never, I> =>
  Layer.effect(
    tag,
    Effect.map(tag, (service) => guardDeep(service, missGuard(toError, degrade)))
  )
