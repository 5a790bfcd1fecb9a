/**
 * When blocks are made (anvil's `MiningMode`):
 * - `Instant`: as soon as transactions are ready, after the submitting response has been sent:
 *   `delayMs` after the first ready transaction, or at once when a client waits for a pending one
 *   (wait_by_hash, as the SDK's `waitForTransaction` does). The delay lets a client read a
 *   just-submitted transaction back as pending (the SDK's e2e suite expects that: its follow-up
 *   request comes a few to a dozen milliseconds after the response on a busy machine) and batches
 *   concurrent submissions into one block; a waiting client does not pay for it. Idle, an empty
 *   block every `idleBlockMs` (1 s by default, as the reference's local validator makes one about
 *   every second), so the chain's clock follows the wall clock, `timestamp::now_seconds` moves and
 *   block heights grow as clients polling `by_height` expect; undefined = no idle blocks (a still
 *   chain: versions move only with transactions).
 * - `Interval`: one block every `intervalMs`, empty or not (`--block-time`), like the reference's
 *   validator at its poll time.
 * - `Manual`: only when asked (`BlockProducer.produce`, the library's "mine" call).
 */
export type MiningMode =
  | { readonly _tag: "Instant"; readonly delayMs: number; readonly idleBlockMs?: number | undefined }
  | { readonly _tag: "Interval"; readonly intervalMs: number }
  | { readonly _tag: "Manual" }

/** Instant mining and its settings. */
export type InstantMining = Extract<MiningMode, { readonly _tag: "Instant" }>

export const MiningMode = {
  /** `idleBlockMs` undefined: no idle blocks (a still chain). */
  instant: (delayMs = 20, idleBlockMs: number | undefined = 1000): InstantMining => ({
    _tag: "Instant",
    delayMs,
    idleBlockMs
  }),
  /** Instant mining without idle blocks: versions move only with transactions (tests that count them). */
  still: (delayMs = 20): MiningMode => ({ _tag: "Instant", delayMs, idleBlockMs: undefined }),
  interval: (intervalMs: number): MiningMode => ({ _tag: "Interval", intervalMs }),
  manual: { _tag: "Manual" } as MiningMode
} as const
