/**
 * A JSON `SubmitTransactionRequest` as a `SignedTransaction` (the reference's
 * `get_signed_transaction` for `SubmitTransactionPost::Json`): the request fields parsed as
 * `encode_submission` parses them, the payload's arguments converted with the on-chain ABIs of
 * `modules`, the chain id the ledger's, and the `signature` converted by `signatureFromJson`. Shared
 * by `POST /v1/transactions` (+ batch) and `POST /v1/transactions/simulate`; never throws.
 */
import * as Result from "effect/Result"
import { type ApiError, ApiErrors } from "../../domain/ApiError.js"
import type { LedgerInfo } from "../../domain/LedgerInfo.js"
import type { SignedTransaction } from "../../domain/Transaction.js"
import type { ModuleSource } from "../../move/layout/ModuleSource.js"
import { buildRawTransaction } from "../encode/buildSigningMessage.js"
import { requestErrorToApiError } from "../encode/EncodeError.js"
import { parseEncodeSubmissionRequest } from "../encode/EncodeSubmissionRequest.js"
import { signatureFromJson } from "./signatureFromJson.js"

/** The signed transaction, or the 400 the reference answers (a malformed request has no ledger headers). */
export const signedTransactionFromJson = (
  body: unknown,
  modules: ModuleSource,
  info: LedgerInfo
): Result.Result<SignedTransaction, ApiError> => {
  const parsed = parseEncodeSubmissionRequest(body)
  if (Result.isFailure(parsed)) return Result.fail(requestErrorToApiError(parsed.failure))
  const invalid = (message: string) =>
    ApiErrors.badRequest(`Failed to create SignedTransaction from SubmitTransactionRequest: ${message}`, info)
  const signature = signatureFromJson((body as { readonly signature?: unknown }).signature)
  if (Result.isFailure(signature)) return Result.fail(invalid(signature.failure))
  const raw = buildRawTransaction(parsed.success, modules, info.chainId)
  if (Result.isFailure(raw)) return Result.fail(invalid(raw.failure.message))
  return Result.succeed({ rawTransaction: raw.success, authenticator: signature.success })
}
