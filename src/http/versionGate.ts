/**
 * Reads that need a ledger version this node may not hold yet: the consistency tools for clients
 * behind a load balancer (docs/scale-out.md "Read your writes").
 *
 * - `X-Movenode-Min-Ledger-Version: V` — answer only from a ledger at version ≥ V: a node behind it
 *   answers 404 `version_not_found` (with its ledger headers), the reference's retryable answer to
 *   a `ledger_version` beyond the latest, instead of an older state.
 * - `X-Movenode-Wait-Ms: N` (opt in) — rather than answer 404 at once, wait up to N ms (at most the
 *   server's `maxVersionWaitMs`) for the version: V above, or the request's `ledger_version` query.
 *
 * Without these headers nothing changes: a `ledger_version` beyond the latest answers 404
 * `version_not_found` at once, as the reference. One timer (every 2 ms, only while requests wait)
 * checks the ledger version for all waiting requests.
 */
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { type ApiError, ApiErrors } from "../domain/ApiError.js"
import type { LedgerInfo } from "../domain/LedgerInfo.js"
import type { NodeService } from "../node/NodeService.js"

export const MIN_LEDGER_VERSION_HEADER = "x-movenode-min-ledger-version"
export const WAIT_MS_HEADER = "x-movenode-wait-ms"

const TICK_MS = 2

/** What a request asks of the ledger version, from its headers and `ledger_version` query. */
export interface VersionWish {
  /** The version the ledger must have reached (undefined: none). */
  readonly target: bigint | undefined
  /** Whether falling short is answered 404 by the gate (the header) or left to the handler (the query). */
  readonly required: boolean
  readonly waitMs: number
}

const U64 = /^[0-9]{1,20}$/

/** Reads the wish; a malformed header is a 400 naming it. */
export const versionWishOf = (
  headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>,
  query: ReadonlyMap<string, string>,
  maxWaitMs: number
): VersionWish | ApiError | undefined => {
  const min = headers[MIN_LEDGER_VERSION_HEADER]
  const wait = headers[WAIT_MS_HEADER]
  if (min === undefined && wait === undefined) return undefined
  if (min !== undefined && (typeof min !== "string" || !U64.test(min) || BigInt(min) > 0xffff_ffff_ffff_ffffn))
    return ApiErrors.webFramework(400, `invalid ${MIN_LEDGER_VERSION_HEADER} header: expected a version (u64)`)
  if (wait !== undefined && (typeof wait !== "string" || !/^[0-9]{1,9}$/.test(wait)))
    return ApiErrors.webFramework(400, `invalid ${WAIT_MS_HEADER} header: expected milliseconds`)
  const waitMs = wait === undefined ? 0 : Math.min(Number(wait), maxWaitMs)
  if (min !== undefined) return { target: BigInt(min), required: true, waitMs }
  const lv = query.get("ledger_version")
  return lv !== undefined && U64.test(lv) ? { target: BigInt(lv), required: false, waitMs } : undefined
}

export interface VersionGate {
  /** Resolves when the request may run; fails with 404 `version_not_found` when it required a version it did not get. */
  readonly admit: (wish: VersionWish) => Effect.Effect<void, ApiError>
}

export const makeVersionGate = (node: NodeService): VersionGate => {
  const waiters = new Set<{ readonly target: bigint; readonly deadline: number; readonly done: () => void }>()
  let timer: ReturnType<typeof setInterval> | undefined

  const current = (): LedgerInfo | undefined => {
    const exit = Effect.runSyncExit(node.ledgerInfo)
    return Exit.isSuccess(exit) ? exit.value : undefined
  }

  const tick = () => {
    const version = current()?.ledgerVersion
    const now = Date.now()
    for (const w of waiters)
      if ((version !== undefined && version >= w.target) || now >= w.deadline) {
        waiters.delete(w)
        w.done()
      }
    if (waiters.size === 0 && timer !== undefined) {
      clearInterval(timer)
      timer = undefined
    }
  }

  const wait = (target: bigint, ms: number) =>
    Effect.callback<void>((resume) => {
      const w = { target, deadline: Date.now() + ms, done: () => resume(Effect.void) }
      waiters.add(w)
      timer ??= setInterval(tick, TICK_MS)
      return Effect.sync(() => {
        waiters.delete(w)
      })
    })

  const admit = (wish: VersionWish): Effect.Effect<void, ApiError> =>
    Effect.suspend(() => {
      const target = wish.target
      if (target === undefined) return Effect.void
      const before = current()
      if (before === undefined || before.ledgerVersion >= target) return Effect.void
      const after: Effect.Effect<LedgerInfo | undefined> =
        wish.waitMs > 0 ? Effect.map(wait(target, wish.waitMs), () => current()) : Effect.succeed(before)
      return Effect.flatMap(after, (info) =>
        wish.required && info !== undefined && info.ledgerVersion < target
          ? Effect.fail(ApiErrors.versionNotFound(target, info))
          : Effect.void
      )
    })

  return { admit }
}
