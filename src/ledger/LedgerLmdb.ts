import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import { closeStore } from "./closeStore.js"
import { compressOnWriteThread } from "./compressOnWriteThread.js"
import type { GenesisInvalid, GenesisMismatch } from "./GenesisError.js"
import { importGenesis } from "./importGenesis.js"
import { Ledger } from "./Ledger.js"
import { type LedgerError, StorageError } from "./LedgerError.js"
import { type LmdbBackendOptions, openLmdbBackend } from "./LmdbBackend.js"
import { type LedgerHandle, type LedgerServiceOptions, makeLedgerService } from "./makeLedgerService.js"

export interface LedgerLmdbOptions extends LedgerServiceOptions, LmdbBackendOptions {
  /**
   * A genesis blob: committed as version 0 when the store is empty, checked against the stored
   * genesis otherwise (a different one fails with GenesisMismatch).
   */
  readonly genesis?: Uint8Array | undefined
}

/** Opens (creating when missing) an LMDB ledger; closed when the scope closes. */
export const open = (
  options: LedgerLmdbOptions
): Effect.Effect<LedgerHandle, GenesisInvalid | GenesisMismatch | LedgerError, Scope.Scope> =>
  Effect.gen(function* () {
    // Blocks' records compressed by LMDB's write thread, not handed to the thread pool one by one.
    yield* Effect.promise(compressOnWriteThread)
    const handle = yield* Effect.acquireRelease(
      Effect.try({
        try: () => makeLedgerService(openLmdbBackend(options), options),
        catch: (e) =>
          new StorageError({
            message: `cannot open the ledger at ${options.path}: ${String(e)}`
          })
      }),
      closeStore
    )
    if (options.genesis !== undefined) yield* importGenesis(handle, options.genesis)
    return handle
  })

/** The `Ledger` service over an LMDB store at `options.path`. */
export const layer = (
  options: LedgerLmdbOptions
): Layer.Layer<Ledger, GenesisInvalid | GenesisMismatch | LedgerError> =>
  Layer.effect(
    Ledger,
    Effect.map(open(options), (h) => h.service)
  )
