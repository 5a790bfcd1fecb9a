import * as Effect from "effect/Effect"

/**
 * Releases a ledger store (`LedgerBackend.close`, a `LedgerHandle`'s close) as a scope's finalizer:
 * waits for the commits it still has in flight (a store opened again meanwhile would not see them,
 * or would wait forever for their write lock); a store that fails to close has nothing left to save.
 */
export const closeStore = (store: { readonly close: () => void | Promise<void> }): Effect.Effect<void> =>
  Effect.promise(() => Promise.resolve(store.close()).catch(() => undefined))
