import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import { Bcs } from "../bcs/index.js"
import type { AccountAddress } from "../domain/AccountAddress.js"
import { ApiErrors, type ApiError } from "../domain/ApiError.js"
import { jsonPrefix } from "../domain/boundedText.js"
import { stateKeyCodec } from "../domain/StateKeyCodec.js"
import { parseTypeTag } from "../domain/TypeTagString.js"
import { Ledger } from "../ledger/Ledger.js"
import { jsonToBcs } from "../move/json/jsonToBcs.js"
import { resolveLayout } from "../move/layout/resolveLayout.js"
import { cachedStateAtLedgerVersion } from "./LedgerVersion.js"
import { ReadErrors } from "./readErrors.js"
import { moveValueJson } from "./render/moveJson.js"
import { Renderer } from "./Renderer.js"
import type { WithLedger } from "./WithLedger.js"

/** A table item: its value as JSON text (by `value_type`) and its stored BCS bytes. */
export interface TableItemAnswer {
  readonly json: string
  readonly bcs: Uint8Array
}

/** `POST /v1/tables/{handle}/item`'s body, already checked to have these fields. */
export interface TableItemRequest {
  readonly keyType: string
  readonly valueType: string
  readonly key: unknown
}

export interface TablesService {
  /** The item under the key converted from JSON by `key_type`, its value rendered by `value_type`. */
  readonly item: (
    handle: AccountAddress,
    request: TableItemRequest,
    ledgerVersion: bigint | undefined
  ) => Effect.Effect<WithLedger<TableItemAnswer>, ApiError>
  /** `POST /v1/tables/{handle}/raw_item`: the item under the key's BCS bytes, as stored. */
  readonly rawItem: (
    handle: AccountAddress,
    key: Uint8Array,
    ledgerVersion: bigint | undefined
  ) => Effect.Effect<WithLedger<Uint8Array>, ApiError>
}

/** The reference's recursion limit for type strings in requests (`MAX_RECURSIVE_TYPES_ALLOWED`). */
const TYPE_DEPTH = 8

const tableItemKey = (handle: AccountAddress, key: Uint8Array): Uint8Array =>
  Bcs.encode(stateKeyCodec, { _tag: "TableItem", handle, key })

/**
 * Table items (the reference's `state.rs` `table_item` / `raw_table_item`): the state key of a
 * table item is the table's handle and the key's BCS, read at `ledger_version` (404/410 as
 * elsewhere); absent = 404 `table_item_not_found`. Types that do not parse are 400 `invalid_input`
 * without ledger headers; a key that does not convert is 400 `invalid_input` with them.
 */
export class Tables extends Context.Service<Tables, TablesService>()("movenode/node/Tables") {
  static readonly layer = Layer.effect(
    Tables,
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const renderer = yield* Renderer
      const stateAt = cachedStateAtLedgerVersion(ledger)

      const item = (handle: AccountAddress, request: TableItemRequest, ledgerVersion: bigint | undefined) =>
        Effect.suspend(() => {
          const keyType = parseTypeTag(request.keyType, TYPE_DEPTH)
          if (Result.isFailure(keyType))
            return Effect.fail(ApiErrors.badRequest(`Failed to parse key_type: ${keyType.failure.message}`))
          const valueType = parseTypeTag(request.valueType, TYPE_DEPTH)
          if (Result.isFailure(valueType))
            return Effect.fail(ApiErrors.badRequest(`Failed to parse value_type: ${valueType.failure.message}`))
          return Effect.flatMap(stateAt(ledgerVersion), ({ ledger: info, version, state }) => {
            const modules = renderer.modulesAt(state)
            const layout = resolveLayout(modules, keyType.success)
            if (Result.isFailure(layout)) return Effect.fail(ApiErrors.badRequest(layout.failure.message, info))
            const key = jsonToBcs(layout.success, request.key)
            if (Result.isFailure(key)) return Effect.fail(ApiErrors.badRequest(key.failure.message, info))
            const bytes = state.get(tableItemKey(handle, key.success))
            if (bytes === undefined)
              return Effect.fail(ReadErrors.tableItemNotFound(handle, jsonPrefix(request.key), version, info))
            const value = moveValueJson(modules, valueType.success, bytes)
            if (Result.isFailure(value))
              return Effect.fail(
                ApiErrors.internal(`Failed to deserialize table item retrieved from DB: ${value.failure}`, info)
              )
            return Effect.succeed({ ledger: info, value: { json: JSON.stringify(value.success), bcs: bytes } })
          })
        })

      const rawItem = (handle: AccountAddress, key: Uint8Array, ledgerVersion: bigint | undefined) =>
        Effect.flatMap(stateAt(ledgerVersion), ({ ledger: info, version, state }) => {
          const bytes = state.get(tableItemKey(handle, key))
          return bytes === undefined
            ? Effect.fail(ReadErrors.tableItemNotFound(handle, `0x${Buffer.from(key).toString("hex")}`, version, info))
            : Effect.succeed({ ledger: info, value: bytes })
        })

      return Tables.of({ item, rawItem })
    })
  )
}
