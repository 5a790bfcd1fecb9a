/**
 * Table info: what a node knows of each table's key and value types, which a table handle does
 * not say. The reference's table-info indexer learns them from the writes that create tables;
 * so does this folder, and the REST renderer then decodes `write_table_item.data` as a real node
 * does, and the indexer's table processors read the same types.
 *
 * - `tablesInValue.ts`: the `0x1::table::Table<K, V>` structs inside one Move value (BCS + layout).
 * - `TableInfoIndex.ts`: handle → types, learned from write sets in version order (resources,
 *   group members, then table values until no new table appears).
 * - `followLedger.ts`: keeps an index up to the ledger, catching up before a version is rendered.
 * - `decodeTableItem.ts`: an item's key and value as JSON with its table's types (the API's `data`).
 */
export * from "./decodeTableItem.js"
export * from "./followLedger.js"
export * from "./TableInfoIndex.js"
export * from "./tablesInValue.js"
