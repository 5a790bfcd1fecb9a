import { ApiError, ApiErrors } from "../domain/ApiError.js"
import type { LedgerInfo } from "../domain/LedgerInfo.js"
import type { SubmitError } from "../chain/ChainError.js"

/** StatusCode::INVALID_SIGNATURE (types/src/vm_status.rs). */
const INVALID_SIGNATURE = 1n

/** The reference's `StatusCode::status_type`, by the number's range. */
const statusTypeOf = (code: bigint): string =>
  code < 1000n
    ? "Validation"
    : code < 2000n
      ? "Verification"
      : code < 3000n
        ? "InvariantViolation"
        : code < 4000n
          ? "Deserialization"
          : "Execution"

/**
 * Maps a refused submission to the API's terms, once (the reference's `create_internal` in
 * api/src/transactions.rs): the pool's messages kept, validation failures as 400 `vm_error` with
 * the status code and "Invalid transaction: Type: Validation Code: <NAME>". Every one of them
 * carries the ledger info read before the submission (the reference's submit errors have headers).
 */
export const apiErrorFromChain = (error: SubmitError, ledger: LedgerInfo): ApiError => {
  switch (error._tag) {
    case "MempoolFull":
      return new ApiError({ status: 507, code: "mempool_is_full", message: error.message, ledger })
    case "SequenceNumberTooOld":
      return new ApiError({ status: 400, code: "sequence_number_too_old", message: error.message, ledger })
    case "InvalidTransactionUpdate":
      return new ApiError({ status: 400, code: "invalid_transaction_update", message: error.message, ledger })
    case "InvalidTransaction":
      return new ApiError({
        status: 400,
        code: "vm_error",
        message: `Invalid transaction: Type: ${statusTypeOf(error.statusCode)} Code: ${error.statusName}`,
        vmErrorCode: error.statusCode,
        ledger
      })
    case "ImpersonationRefused":
      // What the reference answers for a signer without a signature (clients and the SDK's e2e
      // suite match on it), then why and how to impersonate.
      return new ApiError({
        status: 400,
        code: "vm_error",
        message: `Invalid transaction: Type: Validation Code: INVALID_SIGNATURE (${error.message})`,
        vmErrorCode: INVALID_SIGNATURE,
        ledger
      })
    case "ChainUnavailable":
      return ApiErrors.internal(`Mempool failed to initially evaluate submitted transaction: ${error.message}`, ledger)
  }
}
