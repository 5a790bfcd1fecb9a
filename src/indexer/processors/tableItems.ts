/**
 * The default processor's table rows (pv2 `processors/default/models/table_items.rs`, indexer.md
 * §2.6): every table write and delete of a transaction (`table_items`, by version and write-set
 * index), the latest value of each item (`current_table_items`, keyed by the handle and the
 * SHA-256 of the key's hex text) and each table's key and value types (`table_metadatas`), all from
 * the decoded `data` a node with table info gives a table change. A change whose table is unknown
 * (no `data`) is passed over, as the reference's processor skips items without data.
 *
 * One table is left out on purpose, unlike the reference: the framework's ring of recent blocks
 * (`0x1::block::CommitHistory`, `u32` → `0x1::block::NewBlockEvent`), which every block's metadata
 * transaction writes — an idle chain's one block a second included. Each of its items is a copy of
 * that block's `NewBlockEvent`, which `events` and `block_metadata_transactions` already hold, and its
 * two rows were half of what an idle block added to the index (~1.1 KB of ~2 KB; docs/indexer.md,
 * "Differences from the reference"). Its `table_metadatas` row stays (the table is known).
 */
import { createHash } from "node:crypto"
import type { IndexerTransaction } from "./input/IndexerTransaction.js"
import type { Processor, Row, TableWrite } from "./Processor.js"
import { insertRows, upsertRows } from "./rows.js"

/** `key_hash`: hex SHA-256 of the key's `0x…` text (the reference's `hash_str`). */
export const keyHash = (key: string): string => createHash("sha256").update(key, "utf8").digest("hex")

/** The `0x1::block::CommitHistory` ring's items (see above). */
const COMMIT_HISTORY_VALUE = "0x1::block::NewBlockEvent"
const isCommitHistory = (data: { readonly key_type?: string; readonly value_type?: string }) =>
  data.value_type === COMMIT_HISTORY_VALUE && data.key_type === "u32"

export const tableItemWrites = (batch: ReadonlyArray<IndexerTransaction>): TableWrite[] => {
  const items: Row[] = []
  const current: Row[] = []
  const metadatas: Row[] = []
  for (const t of batch)
    for (const c of t.changes) {
      if (c.type !== "write_table_item" && c.type !== "delete_table_item") continue
      const data = c.data()
      if (data === undefined) continue
      const deleted = c.type === "delete_table_item"
      if (!deleted && isCommitHistory(data)) {
        metadatas.push({ handle: c.handle, key_type: data.key_type, value_type: COMMIT_HISTORY_VALUE })
        continue
      }
      const value = deleted ? null : (data.value ?? null)
      items.push({
        transaction_version: t.version,
        write_set_change_index: BigInt(c.index),
        transaction_block_height: t.blockHeight,
        key: c.key,
        table_handle: c.handle,
        decoded_key: data.key,
        decoded_value: value,
        is_deleted: deleted
      })
      current.push({
        table_handle: c.handle,
        key_hash: keyHash(c.key),
        key: c.key,
        decoded_key: data.key,
        decoded_value: value,
        last_transaction_version: t.version,
        is_deleted: deleted
      })
      if (!deleted && data.value_type !== undefined)
        metadatas.push({ handle: c.handle, key_type: data.key_type, value_type: data.value_type })
    }
  return [
    ...insertRows("table_items", items),
    ...upsertRows(
      { table: "current_table_items", key: ["table_handle", "key_hash"], guard: "last_transaction_version" },
      current
    ),
    ...upsertRows({ table: "table_metadatas", key: ["handle"] }, metadatas)
  ]
}

export const tableItemsProcessor: Processor = {
  name: "default_processor",
  tables: ["table_items", "current_table_items", "table_metadatas"],
  process: tableItemWrites
}
