import * as Result from "effect/Result"
import type { JsonValue } from "../../move/json/bcsToJson.js"
import type { ModuleSource } from "../../move/layout/ModuleSource.js"
import { moveValueJson } from "../render/moveJson.js"
import type { TableType } from "./TableInfoIndex.js"

/**
 * A table item decoded with its table's types, as the reference's API shows it in a change's `data`
 * (`DecodedTableData` for a write, `DeletedTableData` without the value for a deletion) and as the
 * indexer's default processor stores it.
 */
export interface DecodedTableItem {
  readonly key: JsonValue
  readonly key_type: string
  readonly value?: JsonValue
  readonly value_type?: string
}

/**
 * `key` (and `value`, for a write) decoded with `table`'s types and `modules`' layouts; undefined
 * when the table is unknown or the bytes are not values of its types.
 */
export const decodeTableItem = (
  modules: ModuleSource,
  table: TableType | undefined,
  key: Uint8Array,
  value: Uint8Array | undefined
): DecodedTableItem | undefined => {
  if (table === undefined) return undefined
  const k = moveValueJson(modules, table.key, key)
  if (Result.isFailure(k)) return undefined
  if (value === undefined) return { key: k.success, key_type: table.keyType }
  const v = moveValueJson(modules, table.value, value)
  if (Result.isFailure(v)) return undefined
  return { key: k.success, key_type: table.keyType, value: v.success, value_type: table.valueType }
}
