import type { ApiError } from "../domain/ApiError.js"
import { boundedPrefix } from "../domain/boundedText.js"
import type { LedgerInfo } from "../domain/LedgerInfo.js"

/** A rendered response: the server adds the ledger headers (when `ledger` is set) and the length. */
export interface Reply {
  readonly status: number
  readonly contentType: string
  readonly body: string | Uint8Array
  readonly ledger: LedgerInfo | undefined
  /** Further `[name, value, …]` header pairs (GAS-USED, CURSOR, Allow). */
  readonly headers?: ReadonlyArray<string> | undefined
  /**
   * The string body is ASCII: its length is its byte count, and it is written as latin1 (no UTF-8
   * length scan or transcoding). Node joins a string body to the header block, so header and body
   * go to the socket as one chunk, with no separate body Buffer to build.
   */
  readonly ascii?: boolean | undefined
}

export const JSON_TYPE = "application/json"
export const BCS_TYPE = "application/x-bcs"

export const jsonReply = (
  body: string | Uint8Array,
  ledger: LedgerInfo | undefined,
  headers?: ReadonlyArray<string>
): Reply => ({
  status: 200,
  contentType: JSON_TYPE,
  body,
  ledger,
  headers
})

/** A JSON body known to be ASCII (hex, digits, fixed keys): see `Reply.ascii`. */
export const asciiJsonReply = (body: string, ledger: LedgerInfo, headers?: ReadonlyArray<string>): Reply => ({
  status: 200,
  contentType: JSON_TYPE,
  body,
  ledger,
  headers,
  ascii: true
})

export const bcsReply = (body: Uint8Array, ledger: LedgerInfo, headers?: ReadonlyArray<string>): Reply => ({
  status: 200,
  contentType: BCS_TYPE,
  body,
  ledger,
  headers
})

/**
 * Longest error message rendered (UTF-16 code units). Messages quote client input by a bounded
 * prefix where they are built; this is the backstop, so no error body exceeds a few kilobytes
 * whatever produced its message.
 */
export const MAX_ERROR_MESSAGE = 2048

/** The error body, always JSON, its message bounded; `vm_error_code` written with all its digits. */
export const errorBodyJson = (e: ApiError): string =>
  `{"message":${JSON.stringify(boundedPrefix(e.message, MAX_ERROR_MESSAGE))},"error_code":"${e.code}","vm_error_code":${
    e.vmErrorCode === undefined ? "null" : e.vmErrorCode.toString()
  }}`

/** Every ApiError is mapped here, once: status, JSON body, ledger headers when it carries them. */
export const errorReply = (e: ApiError, headers?: ReadonlyArray<string>): Reply => ({
  status: e.status >= 400 && e.status <= 599 ? e.status : 500,
  contentType: JSON_TYPE,
  body: errorBodyJson(e),
  ledger: e.ledger,
  headers
})
