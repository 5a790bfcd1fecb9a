/**
 * Fork mode (`movenode --fork-url URL`, `LocalChain`'s `fork`; docs/fork.md): a local chain whose
 * state comes lazily from another chain at a pinned version V. The data path, source to ledger:
 *
 * - `ForkSourceClient`: the source over HTTP (`GET /v1`, `POST /v1/experimental/state_values/raw`,
 *   bulk module listings, history endpoints), bounded and retried on 429/5xx.
 * - `RemoteStateCache`: what the source answered per state key (value + metadata, or absent), in
 *   memory and persisted per (source chain id, V); never a local write.
 * - `ForkStateSource`: the cache in front of the client; synchronous reads, misses fetched one
 *   request per key (single flight).
 * - `StateMisses`: how a synchronous reader (the VM) gets what it missed: the miss is logged in the
 *   running unit of work, which runs again once the keys are fetched (`retryOnMiss`).
 * - `forkBackend`: the ledger store of a fork: local writes (deletions are tombstones) over the
 *   source's state at V; blocks continue at V+1.
 * - `ForkHistory`: transactions and blocks at or below V, from the source (cached too).
 * - `ForkLedger`: opens all of it (pin, cache, prefetch of configs and 0x1/0x3/0x4 modules) and
 *   wraps the ledger service (history, no commit from a run that missed).
 * - `guardServices`: the node, block producer and faucet services under `retryOnMiss`.
 */
export * from "./ForkConfig.js"
export * from "./forkBackend.js"
export * from "./ForkHistory.js"
export * from "./ForkLedger.js"
export * from "./ForkSourceClient.js"
export * from "./ForkStateSource.js"
export * from "./guardServices.js"
export * from "./RemoteStateCache.js"
export * from "./StateMisses.js"
