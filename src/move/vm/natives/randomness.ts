import type { NativeFunction } from "./NativeContext.js"
import { nativeAbort } from "./NativeContext.js"

/** `randomness::E_API_USE_IS_BIASIBLE`: randomness used outside a `#[randomness]` entry function. */
const E_API_USE_IS_BIASIBLE = 1n

/**
 * `0x1::randomness` natives over the session's randomness state: a transaction-local 8-byte
 * counter (little-endian, incremented per fetch) that the framework mixes into the block seed, and
 * whether the running entry function is `#[randomness]` (unbiasable; set by the VM session).
 */
export const randomnessNatives: Record<string, NativeFunction> = {
  fetch_and_increment_txn_counter: (ctx) => {
    const s = ctx.session
    if (!s.unbiasable) return nativeAbort(ctx, E_API_USE_IS_BIASIBLE)
    const out = Array.from(s.randomnessCounter)
    for (let i = 0; i < s.randomnessCounter.length; i++) {
      if (s.randomnessCounter[i]! < 255) {
        s.randomnessCounter[i]!++
        break
      }
      s.randomnessCounter[i] = 0
    }
    return [out]
  },
  is_unbiasable: (ctx) => [ctx.session.unbiasable]
}
