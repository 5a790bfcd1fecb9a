/**
 * The chain's clock: what timestamp the next block gets. Without controls it is the wall clock,
 * strictly after the chain's last block (`max(wall, last + 1 µs)`, as before). The time controls
 * (anvil's `evm_increaseTime`, `evm_setNextBlockTimestamp`, `anvil_setBlockTimestampInterval`,
 * `evm_setTime`) change three things:
 *
 * - `offsetUsec`: added to the wall clock, so the chain keeps running from wherever time travel
 *   left it (devchain.md §3.2: without it the chain would stall at last + 1 µs until the wall clock
 *   caught up);
 * - `nextUsec`: a one-shot timestamp for the next block (the offset then follows it);
 * - `intervalUsec`: a fixed step per block (`last + interval`) instead of the wall clock.
 *
 * Time only moves forward: every block is strictly after the last, whatever the settings. The
 * state is plain data (`ClockSettings`), kept in snapshots and restored by revert. On a restart
 * the offset is recovered from the chain (`resume`): a chain whose last block is ahead of the wall
 * clock continues from there instead of stalling.
 */

export interface ClockSettings {
  readonly offsetUsec: bigint
  readonly nextUsec: bigint | undefined
  readonly intervalUsec: bigint | undefined
}

import * as Context from "effect/Context"
import * as Layer from "effect/Layer"

export const wallClockSettings: ClockSettings = { offsetUsec: 0n, nextUsec: undefined, intervalUsec: undefined }

export class ChainClock {
  private settings: ClockSettings = wallClockSettings
  private resumed = false

  /** The settings now (for snapshots and `GET …/time`). */
  get current(): ClockSettings {
    return this.settings
  }

  /** Restores settings (revert, load); `resume` is not run again. */
  restore(settings: ClockSettings): void {
    this.settings = settings
    this.resumed = true
  }

  /**
   * Once, before the first block of this process: a chain ahead of the wall clock (time travel
   * before a restart) keeps its lead as the offset.
   */
  resume(chainUsec: bigint, wallUsec: bigint): void {
    if (this.resumed) return
    this.resumed = true
    if (chainUsec > wallUsec) this.settings = { ...this.settings, offsetUsec: chainUsec - wallUsec }
  }

  /** The chain's "now" for a block made at `wallUsec` after a block at `chainUsec` (consumes `nextUsec`). */
  nextBlockTimestamp(chainUsec: bigint, wallUsec: bigint): bigint {
    this.resume(chainUsec, wallUsec)
    const s = this.settings
    let ts: bigint
    if (s.nextUsec !== undefined) {
      ts = s.nextUsec > chainUsec ? s.nextUsec : chainUsec + 1n
      // Later blocks continue from the timestamp set (anvil's behaviour), not from the old offset.
      this.settings = { ...s, nextUsec: undefined, offsetUsec: ts - wallUsec }
      return ts
    }
    if (s.intervalUsec !== undefined) {
      ts = chainUsec + s.intervalUsec
      // So that going back to the wall clock continues from here.
      this.settings = { ...s, offsetUsec: ts - wallUsec }
      return ts
    }
    const now = wallUsec + s.offsetUsec
    return now > chainUsec ? now : chainUsec + 1n
  }

  /** What `nextBlockTimestamp` would answer now, without consuming anything. */
  peek(chainUsec: bigint, wallUsec: bigint): bigint {
    const s = this.settings
    if (s.nextUsec !== undefined) return s.nextUsec > chainUsec ? s.nextUsec : chainUsec + 1n
    if (s.intervalUsec !== undefined) return chainUsec + s.intervalUsec
    const now = wallUsec + s.offsetUsec
    return now > chainUsec ? now : chainUsec + 1n
  }

  /** Moves the clock `deltaUsec` ahead (never back: a negative delta is the caller's error). */
  increase(deltaUsec: bigint): void {
    this.settings = { ...this.settings, offsetUsec: this.settings.offsetUsec + deltaUsec }
  }

  /** The next block's timestamp (the caller checks it is after the chain's last block). */
  setNext(timestampUsec: bigint): void {
    this.settings = { ...this.settings, nextUsec: timestampUsec }
  }

  /** Sets "now" to `timestampUsec` at wall time `wallUsec` (blocks stay after the last one). */
  setNow(timestampUsec: bigint, wallUsec: bigint): void {
    this.settings = { ...this.settings, offsetUsec: timestampUsec - wallUsec, nextUsec: undefined }
  }

  /** A fixed step per block; undefined goes back to the wall clock (plus the offset). */
  setInterval(intervalUsec: bigint | undefined): void {
    this.settings = { ...this.settings, intervalUsec }
  }
}

/**
 * The chain's one clock, shared by the block producer (which stamps blocks with it) and whoever
 * builds transactions for the chain (the faucet: an expiry counted from the chain's clock, not the
 * wall clock, survives time travel). Optional: a producer without it keeps a clock of its own.
 */
export class ChainClockService extends Context.Service<ChainClockService, ChainClock>()("movenode/chain/ChainClock") {
  static readonly layer = Layer.sync(ChainClockService, () => new ChainClock())
}
