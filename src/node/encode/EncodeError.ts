import { ApiError, ApiErrors } from "../../domain/ApiError.js"

/**
 * Why an encode_submission request failed, by the stage of the reference's order of checks
 * (aptos-api-behaviour §2.6), which decides the status, the code and the ledger headers:
 * - `Parse`: the body does not have the request's shape or a field does not parse
 *   (400 `web_framework_error`, no ledger headers);
 * - `Verify`: identifiers, type arguments, removed payload kinds (400 `invalid_input`, no headers);
 * - `Convert`: the payload does not convert against the on-chain ABI (400 `invalid_input`, with
 *   ledger headers); the message is the reference's chain after "Failed to parse transaction payload".
 */
export class EncodeError {
  readonly _tag = "EncodeError"
  constructor(
    readonly stage: "Parse" | "Verify" | "Convert",
    readonly message: string
  ) {}
}

/**
 * The API error of a request that failed before the ledger is read (`Parse` or `Verify`): both
 * without ledger headers. The one mapping the encoder and the HTTP layer's BCS pre-check share.
 */
export const requestErrorToApiError = (e: EncodeError): ApiError =>
  e.stage === "Parse"
    ? ApiErrors.webFramework(400, e.message)
    : new ApiError({ status: 400, code: "invalid_input", message: e.message })
