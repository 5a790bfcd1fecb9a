import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { GenesisInvalid, GenesisMismatch } from "./GenesisError.js"
import { importGenesis } from "./importGenesis.js"
import { Ledger } from "./Ledger.js"
import type { LedgerError } from "./LedgerError.js"
import { makeMemoryBackend } from "./MemoryBackend.js"
import { type LedgerHandle, type LedgerServiceOptions, makeLedgerService } from "./makeLedgerService.js"

export interface LedgerMemoryOptions extends LedgerServiceOptions {
  /** A genesis blob to commit as version 0 (its chain id then wins over `chainId`). */
  readonly genesis?: Uint8Array | undefined
}

/** An in-memory ledger (tests, ephemeral nodes), with genesis committed when one is given. */
export const make = (
  options: LedgerMemoryOptions = {}
): Effect.Effect<LedgerHandle, GenesisInvalid | GenesisMismatch | LedgerError> =>
  Effect.gen(function* () {
    const handle = makeLedgerService(makeMemoryBackend(), options)
    if (options.genesis !== undefined) yield* importGenesis(handle, options.genesis)
    return handle
  })

/** The `Ledger` service over a fresh in-memory store. */
export const layer = (
  options: LedgerMemoryOptions = {}
): Layer.Layer<Ledger, GenesisInvalid | GenesisMismatch | LedgerError> =>
  Layer.effect(
    Ledger,
    Effect.map(make(options), (h) => h.service)
  )
