import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ApiErrors, type ApiError } from "../domain/ApiError.js"
import { Ledger } from "../ledger/Ledger.js"
import { readLedgerInfo } from "./LedgerVersion.js"
import type { WithLedger } from "./Node.js"

export interface TransactionEncoderService {
  /**
   * `POST /transactions/encode_submission` (contract item 1): the signing message bytes of the
   * parsed JSON request, its arguments converted with the target function's ABI at the latest version.
   */
  readonly encodeSubmission: (body: unknown) => Effect.Effect<WithLedger<Uint8Array>, ApiError>
}

/** The transaction encoder. Its implementation comes with the JSON-to-BCS argument conversion. */
export class TransactionEncoder extends Context.Service<TransactionEncoder, TransactionEncoderService>()(
  "movenode/node/TransactionEncoder"
) {
  /** Interim: answers 500 `internal_error` until the encoder lands (with the ledger headers). */
  static readonly layerNotImplemented = Layer.effect(
    TransactionEncoder,
    Effect.gen(function* () {
      const ledger = yield* Ledger
      return TransactionEncoder.of({
        encodeSubmission: () =>
          Effect.flatMap(readLedgerInfo(ledger), (info) =>
            Effect.fail(ApiErrors.internal("Transaction encoding (encode_submission) is not implemented yet", info))
          )
      })
    })
  )
}
