import * as Data from "effect/Data"
import type { LedgerInfo } from "./LedgerInfo.js"

/** The `error_code` values of the contract. */
export type ErrorCode =
  | "account_not_found"
  | "resource_not_found"
  | "module_not_found"
  | "struct_field_not_found"
  | "version_not_found"
  | "transaction_not_found"
  | "table_item_not_found"
  | "block_not_found"
  | "state_value_not_found"
  | "version_pruned"
  | "block_pruned"
  | "invalid_input"
  | "invalid_transaction_update"
  | "sequence_number_too_old"
  | "vm_error"
  | "rejected_by_filter"
  | "health_check_failed"
  | "mempool_is_full"
  | "internal_error"
  | "web_framework_error"
  | "bcs_not_supported"
  | "api_disabled"

/**
 * The one error every service answers the API with. It carries everything the HTTP layer needs to
 * render the contract's error body (`message`, `error_code`, `vm_error_code`) and, when the error
 * was produced after the ledger info was read, that ledger info for the ledger headers.
 */
export class ApiError extends Data.TaggedError("ApiError")<{
  readonly status: number
  readonly code: ErrorCode
  readonly message: string
  readonly vmErrorCode?: bigint | undefined
  readonly ledger?: LedgerInfo | undefined
}> {}

const make =
  (status: number, code: ErrorCode) =>
  (message: string, ledger?: LedgerInfo, vmErrorCode?: bigint): ApiError =>
    new ApiError({ status, code, message, ledger, vmErrorCode })

/** Constructors with the reference's status for each code and its standard messages. */
export const ApiErrors = {
  badRequest: make(400, "invalid_input"),
  webFramework: (status: number, message: string) => new ApiError({ status, code: "web_framework_error", message }),
  internal: make(500, "internal_error"),
  bcsNotSupported: (message: string) => new ApiError({ status: 400, code: "bcs_not_supported", message }),
  versionNotFound: (version: bigint, ledger: LedgerInfo) =>
    new ApiError({
      status: 404,
      code: "version_not_found",
      message: `Ledger version not found by Ledger version(${version})`,
      ledger
    }),
  versionPruned: (version: bigint, ledger: LedgerInfo) =>
    new ApiError({
      status: 410,
      code: "version_pruned",
      message: `Ledger version(${version}) has been pruned`,
      ledger
    }),
  moduleNotFound: (address: string, name: string, version: bigint, ledger: LedgerInfo) =>
    new ApiError({
      status: 404,
      code: "module_not_found",
      message: `Module not found by Address(${address}), Module name(${name}) and Ledger version(${version})`,
      ledger
    })
} as const
