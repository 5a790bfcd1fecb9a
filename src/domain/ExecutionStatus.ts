import type { ModuleId } from "./TypeTag.js"

/**
 * Where a Move abort or execution failure happened (`AbortLocation`, BCS enum 0 Module(ModuleId),
 * 1 Script).
 */
export type AbortLocation = { readonly _tag: "Module"; readonly module: ModuleId } | { readonly _tag: "Script" }

/** The error-map entry of an abort code, injected by the VM from the aborting module's metadata. */
export interface AbortInfo {
  readonly reasonName: string
  readonly description: string
}

/**
 * How a kept transaction ended (`ExecutionStatus`, the status recorded in `TransactionInfo` and
 * hashed with it). BCS enum, in this order: 0 Success, 1 OutOfGas, 2 MoveAbort {location, code: u64,
 * info: Option<AbortInfo>}, 3 ExecutionFailure {location, function: u16, code_offset: u16},
 * 4 MiscellaneousError(Option<StatusCode>), a status code being a u64. The abort `info` is part of
 * the serialized value (the reference VM fills it from the error map before the failure epilogue),
 * so it takes part in the transaction-info hash.
 */
export type ExecutionStatus =
  | { readonly _tag: "Success" }
  | { readonly _tag: "OutOfGas" }
  | {
      readonly _tag: "MoveAbort"
      readonly location: AbortLocation
      readonly code: bigint
      readonly info: AbortInfo | undefined
    }
  | {
      readonly _tag: "ExecutionFailure"
      readonly location: AbortLocation
      /** Index of the function handle in the failing module. */
      readonly function: number
      readonly codeOffset: number
    }
  | { readonly _tag: "MiscellaneousError"; readonly statusCode: bigint | undefined }

/** The API's `success` field: only `Success` is a success. */
export const isSuccessStatus = (s: ExecutionStatus): boolean => s._tag === "Success"
