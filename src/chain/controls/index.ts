/**
 * The local chain's test controls (anvil's `anvil_*` / `evm_*`; docs/controls.md), beside the chain:
 *
 * - `ChainControls`: the service (snapshot, revert, reset, mine, time, epochs), over the ledger's
 *   `rewind`, the block producer, the mempool and `ChainEvents` (a `Rewound` event on going back).
 * - `ChainClock`: what timestamp the next block gets (offset, pinned next timestamp, interval).
 * - `Snapshots`: ids used once, later ones discarded on revert.
 * - `nextEpochTimestamp`: when a block starts the next epoch.
 * - `Impersonation`: which addresses may send key-less transactions (the mempool and the VM ask it).
 * - `stateEdits`, `balanceEdits`: edits (resources, group members, accounts, balances) as write sets
 *   over the latest state; `keylessPublishTransaction`: publishing without a key.
 * - `chainDump`: the dump format (dump/load).
 */
export * from "./ChainClock.js"
export * from "./ChainControls.js"
export * from "./nextEpochTimestamp.js"
export * from "./Snapshots.js"
export * from "./chainDump.js"
export * from "./Impersonation.js"
