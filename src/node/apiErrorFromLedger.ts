import { ApiError, ApiErrors } from "../domain/ApiError.js"
import type { LedgerInfo } from "../domain/LedgerInfo.js"
import type { LedgerError } from "../ledger/LedgerError.js"

/**
 * Maps a ledger failure to the API's terms, once, for every node service. `context` says what was
 * being read, for the 500 message. Not-found and pruned cases keep their contract codes; storage
 * failures are internal errors (never the client's fault).
 */
export const apiErrorFromLedger = (error: LedgerError, ledger: LedgerInfo | undefined, context: string): ApiError => {
  switch (error._tag) {
    case "VersionNotFound":
      return ledger === undefined
        ? new ApiError({
            status: 404,
            code: "version_not_found",
            message: `Ledger version not found by Ledger version(${error.version})`
          })
        : ApiErrors.versionNotFound(error.version, ledger)
    case "VersionPruned":
      return ledger === undefined
        ? new ApiError({
            status: 410,
            code: "version_pruned",
            message: `Ledger version(${error.version}) has been pruned`
          })
        : ApiErrors.versionPruned(error.version, ledger)
    case "BlockPruned":
      return new ApiError({
        status: 410,
        code: "block_pruned",
        message: `Block(${error.height}) has been pruned`,
        ledger
      })
    case "TransactionNotFound":
      return new ApiError({
        status: 404,
        code: "transaction_not_found",
        message: `Transaction not found by ${error.query}`,
        ledger
      })
    case "BlockNotFound":
      return new ApiError({
        status: 404,
        code: "block_not_found",
        message: `Block not found by ${error.query}`,
        ledger
      })
    case "StorageError":
      return ApiErrors.internal(`${context}: ${error.message}`, ledger)
  }
}
