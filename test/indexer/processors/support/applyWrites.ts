/**
 * Test helper: a table store in memory that applies processors' writes with the contract's rules
 * (Processor.ts: Insert appends, Upsert by primary key with guard / update / coalesce / or) and
 * the generated columns of current_fungible_asset_balances — what the engine's store does, so tests
 * can assert the rows a query would see after a batch.
 */
import type { ColumnValue, Row, TableWrite } from "../../../../src/indexer/processors/Processor.js"

/** Primary keys of the tables the processors write (indexer.md §2). */
export const primaryKeys: Record<string, ReadonlyArray<string>> = {
  user_transactions: ["version"],
  account_transactions: ["account_address", "transaction_version"],
  events: ["transaction_version", "event_index"],
  ledger_infos: ["chain_id"],
  fungible_asset_metadata: ["asset_type"],
  fungible_asset_activities: ["transaction_version", "event_index"],
  current_fungible_asset_balances: ["storage_id"],
  fungible_asset_to_coin_mappings: ["fungible_asset_metadata_address"],
  current_objects: ["object_address"],
  auth_key_account_addresses: ["account_address"],
  public_key_auth_keys: ["auth_key", "public_key", "public_key_type"],
  signatures: ["transaction_version", "multi_agent_index", "multi_sig_index", "is_sender_primary"],
  // nft (issue 20)
  table_items: ["transaction_version", "write_set_change_index"],
  current_table_items: ["table_handle", "key_hash"],
  table_metadatas: ["handle"],
  current_collections_v2: ["collection_id"],
  current_token_datas_v2: ["token_data_id"],
  current_token_ownerships_v2: ["token_data_id", "property_version_v1", "owner_address", "storage_id"],
  token_activities_v2: ["transaction_version", "event_index"],
  delegated_staking_activities: ["transaction_version", "event_index"],
  delegated_staking_pools: ["staking_pool_address"],
  delegated_staking_pool_balances: ["transaction_version", "staking_pool_address"],
  current_delegated_staking_pool_balances: ["staking_pool_address"],
  current_delegator_balances: ["delegator_address", "pool_address", "pool_type", "table_handle"],
  current_staking_pool_voter: ["staking_pool_address"],
  block_metadata_transactions: ["version"]
}

export type Tables = Map<string, Map<string, Row>>

const keyOf = (table: string, row: Row) => {
  const key = primaryKeys[table]
  if (key === undefined) throw new Error(`no primary key known for ${table}`)
  return key.map((c) => String(row[c])).join("|")
}

const maxOf = (a: ColumnValue | undefined, b: ColumnValue | undefined): ColumnValue => {
  if (a === null || a === undefined) return b ?? null
  if (b === null || b === undefined) return a
  return (a as bigint | string) >= (b as bigint | string) ? a : b
}

const derive = (table: string, row: { [c: string]: ColumnValue }) => {
  if (table !== "current_fungible_asset_balances") return
  row.amount = ((row.amount_v1 as bigint | null) ?? 0n) + ((row.amount_v2 as bigint | null) ?? 0n)
  row.asset_type = row.asset_type_v1 ?? row.asset_type_v2 ?? null
  row.token_standard = (row.asset_type_v1 ?? null) !== null ? "v1" : "v2"
  row.last_transaction_version = maxOf(row.last_transaction_version_v1, row.last_transaction_version_v2)
  row.last_transaction_timestamp = maxOf(row.last_transaction_timestamp_v1, row.last_transaction_timestamp_v2)
}

export const applyWrites = (tables: Tables, writes: ReadonlyArray<TableWrite>): Tables => {
  for (const w of writes) {
    let t = tables.get(w.table)
    if (t === undefined) tables.set(w.table, (t = new Map()))
    const keys = new Set<string>()
    for (const row of w.rows) {
      const k = keyOf(w.table, row)
      if (keys.has(k)) throw new Error(`${w.table}: key ${k} twice in one write`)
      keys.add(k)
      const stored = t.get(k)
      if (w._tag === "Insert" || stored === undefined) {
        if (w._tag === "Insert" && stored !== undefined) continue
        const fresh = { ...row }
        derive(w.table, fresh)
        t.set(k, fresh)
        continue
      }
      if (w.guard !== undefined) {
        const s = stored[w.guard]
        const n = row[w.guard]
        if (!(s === null || s === undefined || (n !== null && n !== undefined && s <= n))) continue
      }
      const merged: { [c: string]: ColumnValue } = { ...stored }
      const pk = primaryKeys[w.table]!
      for (const c of w.update ?? Object.keys(row).filter((c) => !pk.includes(c))) {
        const n = row[c] ?? null
        if (w.coalesce?.includes(c)) merged[c] = n ?? stored[c] ?? null
        else if (w.or?.includes(c)) merged[c] = stored[c] === true || n === true
        else merged[c] = n
      }
      derive(w.table, merged)
      t.set(k, merged)
    }
  }
  return tables
}

export const rowsIn = (tables: Tables, table: string): Row[] => [...(tables.get(table)?.values() ?? [])]
