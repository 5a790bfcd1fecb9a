/** Test helper for the GraphQL and index tests: `user_transactions` rows as the processors write them. */

/** A user transaction row for each version (sender, sequence number and block derived from it). */
export const userTransactionRows = (versions: ReadonlyArray<bigint>, entryFunction = "0x1::aptos_account::transfer") =>
  versions.map((v) => ({
    version: v,
    block_height: v,
    parent_signature_type: "single_sender",
    sender: `0x${String(v).repeat(64)}`,
    sequence_number: v - 1n,
    max_gas_amount: 2000n,
    expiration_timestamp_secs: "2030-01-01T00:00:00",
    gas_unit_price: 100n,
    timestamp: "2026-01-01T00:00:00.5",
    entry_function_id_str: entryFunction,
    epoch: 1n
  }))
