import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { ApiError } from "../domain/ApiError.js"
import type { WithLedger } from "./WithLedger.js"

export interface TransactionEncoderService {
  /**
   * `POST /transactions/encode_submission` (contract item 1): the signing message bytes of the
   * parsed JSON request, its arguments converted with the target function's ABI at the latest version.
   */
  readonly encodeSubmission: (body: unknown) => Effect.Effect<WithLedger<Uint8Array>, ApiError>
}

/** `POST /transactions/encode_submission`: implemented by `TransactionEncoderLive` (`src/node/encode`). */
export class TransactionEncoder extends Context.Service<TransactionEncoder, TransactionEncoderService>()(
  "movenode/node/TransactionEncoder"
) {}
