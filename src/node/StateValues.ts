import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import { Bcs, toHex0x } from "../bcs/index.js"
import { ApiError, ApiErrors } from "../domain/ApiError.js"
import { stateKeyCodec } from "../domain/StateKeyCodec.js"
import { stateValueCodec } from "../domain/StateValueCodec.js"
import { Ledger } from "../ledger/Ledger.js"
import { cachedStateAtLedgerVersion } from "./LedgerVersion.js"
import type { WithLedger } from "./WithLedger.js"

export interface StateValuesService {
  /**
   * `POST /v1/experimental/state_values/raw`: the value under a state key (its BCS bytes) at a
   * version, answered as BCS of the whole `StateValue` (bytes and metadata).
   */
  readonly raw: (
    keyBytes: Uint8Array,
    ledgerVersion: bigint | undefined
  ) => Effect.Effect<WithLedger<Uint8Array>, ApiError>
}

/**
 * Raw state values (the reference's `state.rs` `raw_value`), what `aptos move sim`, `aptos move
 * replay` and a movenode fork read from a source: the version rules first (404/410 as elsewhere),
 * then the key, which must decode as a `StateKey` (else 500 `internal_error`, as the reference
 * answers a key it cannot deserialize); absent = 404 `state_value_not_found`. The key is looked up
 * by its canonical re-encoding, so any encoding the decoder accepts finds the stored key.
 */
export class StateValues extends Context.Service<StateValues, StateValuesService>()("movenode/node/StateValues") {
  static readonly layer = Layer.effect(
    StateValues,
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const stateAt = cachedStateAtLedgerVersion(ledger)
      const raw = (keyBytes: Uint8Array, ledgerVersion: bigint | undefined) =>
        Effect.flatMap(stateAt(ledgerVersion), ({ ledger: info, version, state }) => {
          const shown = toHex0x(keyBytes)
          const key = Bcs.decode(stateKeyCodec, keyBytes)
          if (Result.isFailure(key))
            return Effect.fail(
              ApiErrors.internal(`Failed deserializing state value. key: ${shown}: ${key.failure.message}`, info)
            )
          const canonical = Bcs.encode(stateKeyCodec, key.success)
          const data = state.get(canonical)
          if (data === undefined)
            return Effect.fail(
              new ApiError({
                status: 404,
                code: "state_value_not_found",
                message: `Raw State Value not found by StateKey(${shown}) and Ledger version(${version})`,
                ledger: info
              })
            )
          const metadata = state.metadata?.(canonical)
          return Effect.succeed({ ledger: info, value: Bcs.encode(stateValueCodec, { data, metadata }) })
        })
      return StateValues.of({ raw })
    })
  )
}
