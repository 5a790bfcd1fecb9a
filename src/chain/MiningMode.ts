/**
 * When blocks are made (anvil's `MiningMode`):
 * - `Instant`: as soon as transactions are ready, after the submitting response has been sent:
 *   `delayMs` after the first ready transaction, or at once when a client waits for a pending one
 *   (wait_by_hash, as the SDK's `waitForTransaction` does). The delay lets a client read a
 *   just-submitted transaction back as pending (the SDK's e2e suite expects that: its follow-up
 *   request comes a few to a dozen milliseconds after the response on a busy machine) and batches
 *   concurrent submissions into one block; a waiting client does not pay for it. Idle, no blocks
 *   are made.
 * - `Interval`: one block every `intervalMs`, empty or not (`--block-time`), like the reference's
 *   validator at its poll time.
 * - `Manual`: only when asked (`BlockProducer.produce`, the library's "mine" call).
 */
export type MiningMode =
  | { readonly _tag: "Instant"; readonly delayMs: number }
  | { readonly _tag: "Interval"; readonly intervalMs: number }
  | { readonly _tag: "Manual" }

export const MiningMode = {
  instant: (delayMs = 20): MiningMode => ({ _tag: "Instant", delayMs }),
  interval: (intervalMs: number): MiningMode => ({ _tag: "Interval", intervalMs }),
  manual: { _tag: "Manual" } as MiningMode
} as const
