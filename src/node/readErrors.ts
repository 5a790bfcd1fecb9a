import { addressToShortString, type AccountAddress } from "../domain/AccountAddress.js"
import { ApiError, ApiErrors, type ErrorCode } from "../domain/ApiError.js"
import type { LedgerInfo } from "../domain/LedgerInfo.js"

/**
 * The read endpoints' errors, worded as the reference's `response.rs` helpers build them
 * ("<What> not found by <identifier>"), each with the ledger info it was computed against.
 */
const notFound = (what: string, identifier: string, code: ErrorCode, ledger: LedgerInfo): ApiError =>
  new ApiError({ status: 404, code, message: `${what} not found by ${identifier}`, ledger })

export const ReadErrors = {
  accountNotFound: (address: AccountAddress, version: bigint, ledger: LedgerInfo) =>
    notFound(
      "Account",
      `Address(${addressToShortString(address)}) and Ledger version(${version})`,
      "account_not_found",
      ledger
    ),
  resourceNotFound: (address: AccountAddress, structTag: string, version: bigint, ledger: LedgerInfo) =>
    notFound(
      "Resource",
      `Address(${addressToShortString(address)}), Struct tag(${structTag}) and Ledger version(${version})`,
      "resource_not_found",
      ledger
    ),
  structFieldNotFound: (
    address: AccountAddress,
    structTag: string,
    field: string,
    version: bigint,
    ledger: LedgerInfo
  ) =>
    notFound(
      "Struct Field",
      `Address(${addressToShortString(address)}), Struct tag(${structTag}), Field name(${field}) and Ledger version(${version})`,
      "struct_field_not_found",
      ledger
    ),
  tableItemNotFound: (handle: AccountAddress, key: string, version: bigint, ledger: LedgerInfo) =>
    notFound(
      "Table Item",
      `Table handle(${addressToShortString(handle)}), Table key(${key}) and Ledger version(${version})`,
      "table_item_not_found",
      ledger
    ),
  transactionNotFoundByVersion: (version: bigint, ledger: LedgerInfo) =>
    notFound("Transaction", `Ledger version(${version})`, "transaction_not_found", ledger),
  transactionNotFoundByHash: (hash: string, ledger: LedgerInfo) =>
    notFound("Transaction", `Transaction hash(${hash})`, "transaction_not_found", ledger),
  blockNotFoundByHeight: (height: bigint, ledger: LedgerInfo) =>
    notFound("Block", `Block height(${height})`, "block_not_found", ledger),
  blockNotFoundByVersion: (version: bigint, ledger: LedgerInfo) =>
    notFound("Block", `Ledger version(${version})`, "block_not_found", ledger),
  blockPruned: (height: bigint, ledger: LedgerInfo) =>
    new ApiError({ status: 410, code: "block_pruned", message: `Block(${height}) has been pruned`, ledger }),
  /** `determine_limit`: a zero page is the client's error; above the maximum is clamped. */
  zeroLimit: (ledger: LedgerInfo) => ApiErrors.badRequest("Given limit value (0) must not be zero", ledger),
  startTooHigh: (start: bigint, latest: bigint, ledger: LedgerInfo) =>
    ApiErrors.badRequest(
      `Given start value (${start}) is higher than the current ledger version, it must be < ${latest}`,
      ledger
    )
} as const

/** The page size `determine_limit` picks: absent = `defaultLimit`; 0 = an error; above `max` = `max`. */
export const pageLimit = (
  requested: number | undefined,
  defaultLimit: number,
  max: number,
  ledger: LedgerInfo
): number | ApiError => {
  if (requested === undefined) return Math.min(defaultLimit, max)
  if (requested <= 0) return ReadErrors.zeroLimit(ledger)
  return Math.min(requested, max)
}
