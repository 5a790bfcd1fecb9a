/**
 * The mining mode of a running chain, changeable while it runs (anvil's `evm_setAutomine`,
 * `evm_setIntervalMining`; devchain.md §2.2 "mining mode"): a test turns instant mining off to put
 * several transactions in one block and mines by hand (`POST /__movenode/v1/mine`), then turns it
 * back on. The producer's mining loop (`BlockProducer.loop`) reads the mode at every step and
 * waits on `changed` beside whatever it waits for, so a change takes effect at once; a block
 * being made when the mode changes is finished, never cut short.
 *
 * Not part of a snapshot, as anvil's automine is not: a revert or reset leaves the mode as it is.
 */
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import { type InstantMining, MiningMode } from "../MiningMode.js"

export class MiningSwitch {
  private mode: MiningMode
  private next = Deferred.makeUnsafe<void>()

  constructor(readonly initial: MiningMode) {
    this.mode = initial
  }

  /**
   * Instant mining as this chain was started with it (its delay, its idle blocks or none), else
   * the defaults: what "instant again" means when a request leaves the settings out, so a still
   * chain (no idle blocks) that was mined by hand for a while is still again afterwards.
   */
  get instantSettings(): InstantMining {
    return this.initial._tag === "Instant" ? this.initial : MiningMode.instant()
  }

  /** The mode now. */
  get current(): MiningMode {
    return this.mode
  }

  /** Sets the mode; the mining loop leaves its wait for the old one and follows the new one. */
  set(mode: MiningMode): void {
    this.mode = mode
    const woken = this.next
    this.next = Deferred.makeUnsafe<void>()
    Deferred.doneUnsafe(woken, Effect.void)
  }

  /**
   * Completes at the next `set` after this getter was read: read it before reading `current`, so a
   * change made in between is not missed.
   */
  get changed(): Effect.Effect<void> {
    return Deferred.await(this.next)
  }
}

/**
 * A mining mode as a control asks for it: instant mining's settings left out are the chain's own
 * (`MiningSwitch.instantSettings`); `idleBlockMs: null` = no idle blocks.
 */
export type MiningRequest =
  | {
      readonly _tag: "Instant"
      readonly delayMs?: number | undefined
      readonly idleBlockMs?: number | null | undefined
    }
  | { readonly _tag: "Interval"; readonly intervalMs: number }
  | { readonly _tag: "Manual" }

/** The mode `request` asks for, instant mining's missing settings taken from `instant`. */
export const resolveMiningRequest = (request: MiningRequest, instant: InstantMining): MiningMode =>
  request._tag === "Instant"
    ? {
        _tag: "Instant",
        delayMs: request.delayMs ?? instant.delayMs,
        idleBlockMs: request.idleBlockMs === null ? undefined : (request.idleBlockMs ?? instant.idleBlockMs)
      }
    : request

/** Bounds of a mining mode set by the controls (ms). */
export const MAX_MINING_MS = 3_600_000
export const MAX_INSTANT_DELAY_MS = 60_000

/** Why `mode` cannot be set by the controls, or undefined. */
export const miningModeProblem = (mode: MiningMode): string | undefined => {
  const within = (v: number, min: number, max: number) => Number.isSafeInteger(v) && v >= min && v <= max
  switch (mode._tag) {
    case "Instant":
      if (!within(mode.delayMs, 0, MAX_INSTANT_DELAY_MS))
        return `delay_ms: expected 0..${MAX_INSTANT_DELAY_MS}, got ${mode.delayMs}`
      if (mode.idleBlockMs !== undefined && !within(mode.idleBlockMs, 1, MAX_MINING_MS))
        return `idle_block_ms: expected 1..${MAX_MINING_MS} or null, got ${mode.idleBlockMs}`
      return undefined
    case "Interval":
      return within(mode.intervalMs, 1, MAX_MINING_MS)
        ? undefined
        : `interval_ms: expected 1..${MAX_MINING_MS}, got ${mode.intervalMs}`
    case "Manual":
      return undefined
  }
}
