/**
 * The one JSON renderer for what the ledger holds and the executor produces, in the reference's
 * shapes (`api/types/src/transaction.rs`, aptos-api-behaviour.md §1.10, local-chain.md §2.2): Move
 * values through the converter the view endpoint uses (`src/move/json`), with layouts from the
 * modules of the state they are read at (a `ModuleSource`).
 *
 * - `transactionJson`: a transaction with its outcome (committed, or simulated with zero hashes),
 *   every kind: user, genesis, block metadata, state checkpoint, block epilogue, validator.
 * - `pendingTransactionJson`: a mempool transaction (hash and request fields).
 * - `payloadJson`, `signatureJson`, `writeSetChangesJson`, `eventsJson`, `resourceJson`,
 *   `moveValueJson`: the parts, for the endpoints that show them alone.
 */
export * from "./eventsJson.js"
export * from "./moveJson.js"
export * from "./payloadJson.js"
export * from "./signatureJson.js"
export * from "./transactionJson.js"
export * from "./writeSetJson.js"
export * from "./transactionBcs.js"
