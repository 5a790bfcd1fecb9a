/**
 * The ledger: committed blocks, transactions and versioned global state, behind the `Ledger`
 * service (`Ledger.ts`). Layout, pruning and figures: `README.md`.
 *
 * - `LedgerMemory.make/layer`, `LedgerLmdb.open/layer`: the service over an in-memory store or an
 *   LMDB environment, with an optional genesis blob; `make`/`open` return a `LedgerHandle` (the
 *   service plus head, pruning step and genesis commit) for tests and tools.
 * - `makeLedgerService` over a `LedgerBackend`: every version/window/height check happens there and
 *   `prepareBlock` assigns versions, heights, hashes and summaries, so stores only store and read
 *   and the two cannot disagree.
 * - `importGenesis`: commits a genesis blob as version 0 / block 0, or checks it against a store's
 *   (`GenesisMismatch`).
 * - Pruning (`pruneWindow` option): the oldest retained version is block aligned (`pruneWindow.ts`);
 *   reads below it fail VersionPruned/BlockPruned; pruned data is deleted in bounded batches.
 */
export * from "./GenesisError.js"
export * from "./importGenesis.js"
export * from "./Ledger.js"
export type { LedgerBackend, LedgerHead, PreparedBlock } from "./LedgerBackend.js"
export * from "./LedgerError.js"
export * as LedgerLmdb from "./LedgerLmdb.js"
export * as LedgerMemory from "./LedgerMemory.js"
export { type LmdbBackendOptions, openLmdbBackend } from "./LmdbBackend.js"
export { makeMemoryBackend } from "./MemoryBackend.js"
export * from "./makeLedgerService.js"
export * from "./prepareBlock.js"
export * from "./pruneWindow.js"
export * from "./stateReaderAt.js"
export * from "./writeOpValue.js"
