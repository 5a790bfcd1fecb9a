/**
 * `objects_processor` (pv2 `processors/objects/v2_objects_models.rs`): `current_objects`, the
 * latest state of every object, from each written `0x1::object::ObjectCore`. When an object's
 * `ObjectGroup` is deleted the row is marked `is_deleted` and keeps its last owner, guid count and
 * transfer flags (the reference reads them from its own table; here they come from the state
 * before the transaction, which holds the same values).
 */
import { frameworkStruct } from "../../node/stateKeys.js"
import type { IndexerTransaction } from "./input/IndexerTransaction.js"
import { objectCoreOf, resourcesByAddress } from "./objectResources.js"
import type { Processor, Row } from "./Processor.js"
import { upsertRows } from "./rows.js"

const OBJECT_CORE = frameworkStruct("object", "ObjectCore")
const OBJECT_GROUP = frameworkStruct("object", "ObjectGroup")
const UNTRANSFERABLE = frameworkStruct("object", "Untransferable")

export const currentObjectRows = (t: IndexerTransaction): Row[] => {
  const rows: Row[] = []
  const byAddress = resourcesByAddress(t)
  for (const c of t.changes) {
    if (c.type === "write_resource" && c.typeStr === "0x1::object::ObjectCore") {
      const r = byAddress.get(c.address)
      const core = r?.objectCore
      if (core === undefined) continue
      rows.push({
        object_address: c.address,
        owner_address: core.owner,
        state_key_hash: core.stateKeyHash,
        allow_ungated_transfer: core.allowUngatedTransfer,
        last_guid_creation_num: core.guidCreationNum,
        last_transaction_version: t.version,
        is_deleted: false,
        untransferrable: r?.untransferable === true || !core.allowUngatedTransfer
      })
    } else if (c.type === "delete_resource" && c.isGroup && c.typeStr === "0x1::object::ObjectGroup") {
      const previous = objectCoreOf(t.before.resource(c.address, OBJECT_CORE, OBJECT_GROUP), c.stateKeyHash)
      // An object this chain never had (cannot happen on a ledger indexed from genesis) is skipped,
      // as the reference skips one missing from its table.
      if (previous === undefined) continue
      const untransferable = t.before.resource(c.address, UNTRANSFERABLE, OBJECT_GROUP) !== undefined
      rows.push({
        object_address: c.address,
        owner_address: previous.owner,
        state_key_hash: c.stateKeyHash,
        allow_ungated_transfer: previous.allowUngatedTransfer,
        last_guid_creation_num: previous.guidCreationNum,
        last_transaction_version: t.version,
        is_deleted: true,
        untransferrable: untransferable || !previous.allowUngatedTransfer
      })
    }
  }
  return rows
}

export const objectsProcessor: Processor = {
  name: "objects_processor",
  tables: ["current_objects"],
  process: (batch) =>
    upsertRows(
      { table: "current_objects", key: ["object_address"], guard: "last_transaction_version" },
      batch.flatMap(currentObjectRows)
    )
}
