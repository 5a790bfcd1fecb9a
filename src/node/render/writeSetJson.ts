import * as Result from "effect/Result"
import { Bcs } from "../../bcs/index.js"
import { addressToShortString } from "../../domain/AccountAddress.js"
import { resourceGroupCodec } from "../../domain/ResourceGroupCodec.js"
import { stateKeyHash } from "../../domain/stateKeyHash.js"
import { compareStructTags } from "../../domain/StructTagOrder.js"
import { structTagToString } from "../../domain/TypeTagString.js"
import type { WriteSet, WriteSetEntry } from "../../domain/WriteSet.js"
import type { ModuleSource } from "../../move/layout/ModuleSource.js"
import { moduleAbiJsonOf } from "../moduleAbiJsonOf.js"
import { decodeTableItem } from "../tableInfo/decodeTableItem.js"
import { noTableTypes, type TableTypes } from "../tableInfo/TableInfoIndex.js"
import { hexJson, type JsonObject, type JsonValue, resourceJson } from "./moveJson.js"

const dataOf = (entry: WriteSetEntry): Uint8Array | undefined => ("data" in entry.op ? entry.op.data : undefined)

/** `{"bytecode", "abi"}` of a module's bytes (`abi` null when they do not deserialize). */
export const moduleBytecodeJson = (bytes: Uint8Array): JsonObject => ({
  bytecode: hexJson(bytes),
  abi: JSON.parse(moduleAbiJsonOf(bytes))
})

/**
 * One write-set entry as the API's changes (`WriteSetChange`): a module write or deletion, a
 * resource write or deletion (a resource group's write becomes one `write_resource` per member,
 * all with the group's `state_key_hash`, in the reference's struct-tag order: `compareStructTags`),
 * a table item write or deletion (`data` decoded with the table's types when `tables` knows them,
 * else null, as on a reference node without its table-info indexer). Entries that cannot be
 * shown (a raw key, a value that does not decode) are left out, as the reference's
 * `try_into_write_set_changes(…).ok()` does.
 */
export const writeSetChangesOf = (
  modules: ModuleSource,
  entry: WriteSetEntry,
  tables: TableTypes = noTableTypes
): JsonObject[] => {
  const key = entry.key
  const state_key_hash = hexJson(stateKeyHash(entry.keyBytes))
  const data = dataOf(entry)
  if (key._tag === "TableItem") {
    const handle = hexJson(key.handle)
    const k = hexJson(key.key)
    // As the reference: `data` null when the table's types are unknown.
    const decoded = (decodeTableItem(modules, tables(key.handle), key.key, data) ?? null) as JsonValue
    return data === undefined
      ? [{ state_key_hash, handle, key: k, data: decoded, type: "delete_table_item" }]
      : [{ state_key_hash, handle, key: k, value: hexJson(data), data: decoded, type: "write_table_item" }]
  }
  if (key._tag === "Raw") return []
  const address = addressToShortString(key.address)
  const path = key.path
  switch (path._tag) {
    case "Code":
      return data === undefined
        ? [
            {
              address,
              state_key_hash,
              module: `${addressToShortString(path.module.address)}::${path.module.name}`,
              type: "delete_module"
            }
          ]
        : [{ address, state_key_hash, data: moduleBytecodeJson(data), type: "write_module" }]
    case "Resource": {
      if (data === undefined)
        return [{ address, state_key_hash, resource: structTagToString(path.struct), type: "delete_resource" }]
      const resource = resourceJson(modules, path.struct, data)
      return Result.isSuccess(resource)
        ? [{ address, state_key_hash, data: resource.success, type: "write_resource" }]
        : []
    }
    case "ResourceGroup": {
      if (data === undefined)
        return [{ address, state_key_hash, resource: structTagToString(path.struct), type: "delete_resource" }]
      const members = Bcs.decode(resourceGroupCodec, data)
      if (Result.isFailure(members)) return []
      const out: JsonObject[] = []
      for (const m of [...members.success].sort((a, b) => compareStructTags(a.struct, b.struct))) {
        const resource = resourceJson(modules, m.struct, m.bytes)
        if (Result.isFailure(resource)) return []
        out.push({ address, state_key_hash, data: resource.success, type: "write_resource" })
      }
      return out
    }
  }
}

/** A write set's changes, in its (BCS key) order. */
export const writeSetChangesJson = (
  modules: ModuleSource,
  ws: WriteSet,
  tables: TableTypes = noTableTypes
): JsonObject[] => ws.entries.flatMap((e) => writeSetChangesOf(modules, e, tables))
