/**
 * When blocks are made (anvil's `MiningMode`):
 * - `Instant`: as soon as transactions are ready, after the submitting response has been sent.
 *   `delayMs` waits that long after the first ready transaction (a few milliseconds: the SDK's
 *   e2e suite reads a just-submitted transaction back and expects it still pending, and a short
 *   window batches concurrent submissions into one block). Idle, no blocks are made.
 * - `Interval`: one block every `intervalMs`, empty or not (`--block-time`), like the reference's
 *   validator at its poll time.
 * - `Manual`: only when asked (`BlockProducer.produce`, the library's "mine" call).
 */
export type MiningMode =
  | { readonly _tag: "Instant"; readonly delayMs: number }
  | { readonly _tag: "Interval"; readonly intervalMs: number }
  | { readonly _tag: "Manual" }

export const MiningMode = {
  instant: (delayMs = 5): MiningMode => ({ _tag: "Instant", delayMs }),
  interval: (intervalMs: number): MiningMode => ({ _tag: "Interval", intervalMs }),
  manual: { _tag: "Manual" } as MiningMode
} as const
